// An extern instance passed as a directionless apply parameter of a control.
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
struct meta_t { }
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control Bump(register<bit<8>> r) {
    apply {
        bit<8> v;
        r.read(v, 0);
        r.write(0, v + 1);
    }
}
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    register<bit<8>>(1) seen;
    Bump() bump;
    apply {
        bump.apply(seen);
        bit<8> v;
        seen.read(v, 0);
        h.eth.src[7:0] = v;
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
