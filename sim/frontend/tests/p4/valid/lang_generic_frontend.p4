// Front-end coverage (no STF: the engine does not run these yet): generic
// parsers and controls instantiated with type arguments, a constructor
// parameter passed on to an inner instance, and type inference through a
// generic struct parameter (`T first<T, U>(in Pair<T, U> p)` called with a
// Pair<bit<8>, bool> infers T = bit<8>, U = bool).
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
struct Pair<A, B> { A first; B second; }
struct Box<T> { T val; }
struct headers_t { in_t i; }
struct meta_t { bit<8> m; }

T first_of<T, U>(in Pair<T, U> p) { return p.first; }
Box<T> boxed<T>(in T v) {
    Box<T> b = { val = v };
    return b;
}
void put<T>(out Box<T> dst, in T v) { dst.val = v; }

parser Sub<H>(packet_in pkt, out H h) {
    state start { pkt.extract(h); transition accept; }
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    Sub<in_t>() sp;
    state start { sp.apply(pkt, hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Add<T>(inout T v)(T amount) {
    apply { v = v + amount; }
}

control Twice(inout bit<8> v)(bit<8> step) {
    Add<bit<8>>(step) first;
    Add<bit<8>>(step + 1) second;
    apply { first.apply(v); second.apply(v); }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Twice(8w3) tw;
    apply {
        sm.egress_spec = 2;
        Pair<bit<8>, bool> p = { first = hdr.i.a, second = true };
        hdr.i.b = first_of(p);
        Box<bit<8>> bx;
        put(bx, boxed(hdr.i.b).val);
        tw.apply(bx.val);
        hdr.i.a = bx.val;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
