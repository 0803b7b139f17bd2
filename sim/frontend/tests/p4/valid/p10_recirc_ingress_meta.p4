// The pass a recirculate called in ingress starts: instance_type 4 and
// packet_length the deparsed packet's (with the header egress added) in
// ingress; its unicast egress sees instance_type 0.
#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<8> passes;
    bit<8> in_type;
    bit<16> in_len;
    bit<8> eg_type;
    bit<16> eg_len;
}
header tag_t { bit<16> t; }
struct headers_t { h_t h; tag_t tag; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.passes = h.h.passes + 1;
        h.h.in_type = (bit<8>) sm.instance_type;
        h.h.in_len = (bit<16>) sm.packet_length;
        if (sm.instance_type == 0) {
            recirculate_preserving_field_list(0);
            sm.egress_spec = 1;
        } else {
            sm.egress_spec = 2;
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.eg_type = (bit<8>) sm.instance_type;
        h.h.eg_len = (bit<16>) sm.packet_length;
        if (h.h.passes == 1) {
            h.tag.setValid();
            h.tag.t = 0xbeef;
        }
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); pkt.emit(h.tag); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
