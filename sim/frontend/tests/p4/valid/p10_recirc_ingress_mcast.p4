// recirculate called in ingress with multicast: the copies start without
// the request (bmv2 clears their registers), so none recirculates; the
// unicast packet of the same program does.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> op; bit<8> passes; bit<8> rid; bit<8> port; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.passes = h.h.passes + 1;
        if (sm.instance_type == 0) {
            recirculate_preserving_field_list(0);
            if (h.h.op == 1) {
                sm.mcast_grp = 1;
            } else {
                sm.egress_spec = 1;
            }
        } else {
            sm.egress_spec = 4;
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.rid = (bit<8>) sm.egress_rid;
        h.h.port = (bit<8>) sm.egress_port;
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
