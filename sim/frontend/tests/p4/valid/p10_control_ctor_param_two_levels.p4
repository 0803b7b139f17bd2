// A control instance passed on through two constructors: Quad gives its
// parameter to the Twice it declares. Twice is instantiated in I and in
// Quad; every apply reaches I's one AddOne and its counter, I.one.c.
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
struct meta_t { }
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control Step(inout bit<8> x);
control AddOne(inout bit<8> x) {
    counter(1, CounterType.packets) c;
    apply { x = x + 1; c.count(0); }
}
control Twice(inout bit<8> x)(Step f) { apply { f.apply(x); f.apply(x); } }
control Quad(inout bit<8> x)(Step f) {
    Twice(f) twice;
    apply { twice.apply(x); twice.apply(x); }
}
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    AddOne() one;
    Twice(one) twice;
    Quad(one) quad;
    apply {
        twice.apply(h.eth.src[7:0]);
        quad.apply(h.eth.dst[7:0]);
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
