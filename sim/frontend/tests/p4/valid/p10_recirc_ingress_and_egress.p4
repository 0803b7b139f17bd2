// recirculate called in ingress and again in egress: one request per
// packet, the later call replaces the field list, and the packet
// recirculates once.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> op; bit<8> passes; bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { @field_list(1) bit<8> a; @field_list(2) bit<8> b; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.passes = h.h.passes + 1;
        if (sm.instance_type == 0) {
            m.a = 0xa1;
            m.b = 0xb1;
            recirculate_preserving_field_list(1);
            sm.egress_spec = 1;
        } else {
            h.h.a = m.a;
            h.h.b = m.b;
            sm.egress_spec = 2;
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        if (h.h.op == 1 && h.h.passes == 1) {
            recirculate_preserving_field_list(2);
        }
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
