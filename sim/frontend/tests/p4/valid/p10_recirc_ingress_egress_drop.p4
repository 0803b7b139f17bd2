// recirculate called in ingress, mark_to_drop in egress: bmv2 drops the
// packet before deparsing and never looks at the request.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> op; bit<8> passes; }
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
            sm.egress_spec = 1;
        } else {
            sm.egress_spec = 2;
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        if (h.h.op == 1 && h.h.passes == 1) {
            mark_to_drop(sm);
        }
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
