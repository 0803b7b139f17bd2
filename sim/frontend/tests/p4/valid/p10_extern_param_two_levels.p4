// A register passed on through two levels of apply parameters, starting
// from a constructor parameter: I gives its register to Ctor's
// constructor, Ctor passes it to Outer.apply, Outer to Inner.apply.
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
struct meta_t { }
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control Inner(inout bit<8> x, register<bit<8>> r) {
    apply {
        bit<8> v;
        r.read(v, 0);
        v = v + 1;
        r.write(0, v);
        x = v;
    }
}
control Outer(inout bit<8> x, register<bit<8>> r) {
    Inner() inner;
    apply {
        inner.apply(x, r);
        bit<8> v;
        r.read(v, 0);
        r.write(0, v + 0x10);
    }
}
control Ctor(inout bit<8> x)(register<bit<8>> r) {
    Outer() outer;
    apply { outer.apply(x, r); }
}
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    register<bit<8>>(1) seen;
    Ctor(seen) c;
    apply {
        bit<8> x = 0;
        c.apply(x);
        bit<8> v;
        seen.read(v, 0);
        h.eth.src[7:0] = v;
        h.eth.dst[7:0] = x;
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
