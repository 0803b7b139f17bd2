#include <core.p4>
#include <v1model.p4>
const bit<8> BASE = 8w0x10;
header in_t { bit<8> a; bit<8> b; bit<8> c; }
struct headers_t { in_t i; }
struct meta_t { }
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
// Adds `amount`, but only when the value is below `limit`.
control Adder(inout bit<8> v)(bit<8> amount, bit<8> limit) {
    apply { if (v < limit) { v = v + amount; } }
}
// Three levels: each passes an expression of its own parameter down.
control Mid(inout bit<8> v)(bit<8> n) {
    Adder(n ^ 8w0x0f, BASE + n) add;
    apply { add.apply(v); }
}
control Outer(inout bit<8> v)(bit<8> n) {
    Mid(n |+| 8w250) m;
    apply { m.apply(v); }
}
// A generic control forwarding its parameter in an expression.
control Gen<T>(inout bit<8> v)(T tag, bit<8> n) {
    Adder(n - 1, 8w0xff) add;
    apply { add.apply(v); }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Outer(8w3) o;
    Gen(16w7, 8w9) g;
    Mid(8w1) m1;
    apply {
        sm.egress_spec = 2;
        o.apply(hdr.i.a);
        g.apply(hdr.i.b);
        m1.apply(hdr.i.c);
    }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
