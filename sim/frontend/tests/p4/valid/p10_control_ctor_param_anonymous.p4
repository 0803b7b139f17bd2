// A control instance created in the constructor call (Twice(AddOne())),
// applied through the parameter; its counter lives under I.twice.
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
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    Twice(AddOne()) twice;
    apply {
        bit<8> v = h.eth.src[7:0];
        twice.apply(v);
        h.eth.src[7:0] = v;
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
