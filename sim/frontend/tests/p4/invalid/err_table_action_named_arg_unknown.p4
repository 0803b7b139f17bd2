// A named argument in a table's default action must name a control-plane
// parameter of the action.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k; bit<8> x; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.x = v; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; }
        default_action = set(value = 1); // error: E0403
    }
    apply { t.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
