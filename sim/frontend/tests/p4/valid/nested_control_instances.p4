// Language test: a control instantiated twice inside another; each
// instance has its own tables, actions and counters (P4Info names by path).
#include <core.p4>
#include <v1model.p4>
struct h_t {} struct m_t { bit<8> x; }
control Inner(inout m_t m) {
    counter(32w8, CounterType.packets) hits;
    action set(bit<8> v) { m.x = v; }
    table t { key = { m.x: exact; } actions = { set; NoAction; } }
    apply { t.apply(); hits.count(0); }
}
parser P(packet_in b, out h_t h, inout m_t m, inout standard_metadata_t sm) { state start { transition accept; } }
control Ing(inout h_t h, inout m_t m, inout standard_metadata_t sm) {
    Inner() first;
    Inner() second;
    @name(".global_tbl") table g { actions = { NoAction; } }
    apply { first.apply(m); second.apply(m); g.apply(); }
}
control E(inout h_t h, inout m_t m, inout standard_metadata_t sm) { apply {} }
control V(inout h_t h, inout m_t m) { apply {} }
control D(packet_out b, in h_t h) { apply {} }
V1Switch(P(), V(), Ing(), E(), V(), D()) main;
