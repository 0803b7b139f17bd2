// STF rule: an assignment fixes its target before the value is computed:
// in s[i].v = tick(i), tick increments i, yet the element written is the
// one i named before the call.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> i; }
header e_t { bit<8> v; }
struct H { h_t h; e_t[4] s; }
struct M { }
bit<8> tick(inout bit<8> c) { c = c + 1; return c; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t sm) { state start { p.extract(h.h); p.extract(h.s.next); p.extract(h.s.next); p.extract(h.s.next); p.extract(h.s.next); transition accept; } }
control V(inout H h, inout M m) { apply {} }
control I(inout H h, inout M m, inout standard_metadata_t sm) {
  apply { sm.egress_spec = 1; bit<8> i = h.h.i; h.s[i].v = tick(i); }
}
control E(inout H h, inout M m, inout standard_metadata_t sm) { apply {} }
control C(inout H h, inout M m) { apply {} }
control D(packet_out p, in H h) { apply { p.emit(h.h); p.emit(h.s); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
