// lookahead<S>() of a struct holding a header stack: each element takes
// its bits in index order and is valid; a packet too short for the whole
// struct is PacketTooShort (the parser stops, ingress still runs).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; }
struct S { h_t[2] hs; bit<8> g; }
struct headers { h_t a; }
struct meta {}
parser P(packet_in pkt, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start {
        S s = pkt.lookahead<S>();
        transition select(s.hs[1].f) { 1: acc; default: accept; }
    }
    state acc { pkt.extract(hdr.a); transition accept; }
}
control V(inout headers h, inout meta m) { apply {} }
control I(inout headers h, inout meta m, inout standard_metadata_t sm) {
    apply { if (h.a.isValid()) { sm.egress_spec = 2; } else { sm.egress_spec = 3; } }
}
control E(inout headers h, inout meta m, inout standard_metadata_t sm) { apply {} }
control C(inout headers h, inout meta m) { apply {} }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.a); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
