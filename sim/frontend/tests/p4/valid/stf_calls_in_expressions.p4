// STF rule: calls inside expressions. A function or a table apply in an
// expression runs where P4 evaluates it: operands left to right, the right
// operand of && only when the left holds (the table below is applied only
// for op 3), and only the chosen branch of ?: (bump changes meta.n only
// for op 5). Functions may be used in select keys and nested in arguments.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> op; bit<8> a; bit<8> b; bit<8> c; }
struct H { h_t h; }
struct M { bit<8> n; }
bit<8> twice(in bit<8> x) { return x + x; }
bit<8> bump(inout bit<8> n) { n = n + 1; return n; }
bool small(in bit<8> x) { return x < 10; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t sm) {
  state start { p.extract(h.h); transition select(twice(h.h.op)) { 2: one; default: accept; } }
  state one { h.h.c = 0xee; transition accept; }
}
control V(inout H h, inout M m) { apply {} }
control I(inout H h, inout M m, inout standard_metadata_t sm) {
  action hit_it() { h.h.b = h.h.b + 0x10; }
  table t { key = { h.h.a : exact; } actions = { hit_it; NoAction; } default_action = NoAction; }
  apply {
    sm.egress_spec = 2;
    if (small(h.h.a) && twice(h.h.a) == 8) { h.h.a = 0x44; }
    if (h.h.op == 3 && t.apply().hit) { h.h.c = 0x33; }
    h.h.b = h.h.op == 5 ? bump(m.n) : twice(twice(h.h.op));
  }
}
control E(inout H h, inout M m, inout standard_metadata_t sm) { apply {} }
control C(inout H h, inout M m) { apply {} }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
