// recirculate_preserving_field_list called in ingress on a unicast packet:
// the request goes with the packet into egress, and the recirculated pass
// keeps the listed field as egress left it.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> op; bit<8> kept; bit<8> passes; bit<8> unkept; }
struct headers_t { h_t h; }
struct meta_t { @field_list(1) bit<8> k; bit<8> u; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.passes = h.h.passes + 1;
        if (sm.instance_type == 0) {
            m.k = 0x10;
            m.u = 0x20;
            recirculate_preserving_field_list(1);
            sm.egress_spec = 1;
        } else {
            h.h.kept = m.k;
            h.h.unkept = m.u;
            sm.egress_spec = 2;
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        m.k = m.k + 1;
        m.u = m.u + 1;
        h.h.op = h.h.op + 1;
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
