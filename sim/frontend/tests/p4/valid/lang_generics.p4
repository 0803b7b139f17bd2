// Generics and sub-blocks: generic functions (inferred and explicit type
// arguments, inout), generic struct and header types, constructor
// parameters (bit and bool), controls instantiated inside another control
// with constructor arguments, nested parser apply. (Generic parsers and
// controls as sub-blocks, and a constructor parameter passed on to an inner
// instance, are engine gaps: see the probe report.)
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<16> b; }
header sub_t { bit<8> v; }
header out_t { bit<8> m8; bit<16> m16; bit<8> boxed; bit<8> gh; bit<8> acc; bit<8> sub; }
struct Box<T> { T val; bit<8> tag; }
header GH<T> { T f; }
struct headers_t { in_t i; sub_t s; out_t o; }
struct meta_t { bit<8> acc; }

T pick_max<T>(in T x, in T y) {
    if (x > y) { return x; }
    return y;
}

void swap<T>(inout T x, inout T y) {
    T t = x;
    x = y;
    y = t;
}

parser SubParser(packet_in pkt, out sub_t h) {
    state start { pkt.extract(h); transition accept; }
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    SubParser() sp;
    state start {
        pkt.extract(hdr.i);
        transition select(hdr.i.a) {
            0 : accept;
            default : sub;
        }
    }
    state sub { sp.apply(pkt, hdr.s); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Adder(inout bit<8> v)(bit<8> amount) {
    apply { v = v + amount; }
}

control Twice(inout bit<8> v)(bool enabled) {
    Adder(8w3) first;
    Adder(8w4) second;
    apply { if (enabled) { first.apply(v); second.apply(v); } }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Twice(true) tw;
    Twice(false) off;
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.m8 = pick_max(hdr.i.a, 8w0x40);
        hdr.o.m16 = pick_max<bit<16>>(hdr.i.b, 16w0x0100);
        Box<bit<8>> bx = { val = hdr.i.a, tag = 8w1 };
        Box<bit<8>> by = { val = 8w2, tag = 8w3 };
        swap(bx, by);
        hdr.o.boxed = bx.val + bx.tag;
        GH<bit<8>> g;
        g.setValid();
        g.f = hdr.i.a ^ 8w0xff;
        hdr.o.gh = g.isValid() ? g.f : 8w0;
        meta.acc = hdr.i.a;
        tw.apply(meta.acc);
        off.apply(meta.acc);
        hdr.o.acc = meta.acc;
        hdr.o.sub = hdr.s.isValid() ? hdr.s.v : 8w0xee;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
