// Control-plane names that look alike but do not conflict (E0408 is for
// those that do):
// * the top-level action `fwd` is used by tables of two controls: one
//   action, one name;
// * the controls I and E both declare an action `set` and a table `t`:
//   they are `I.set`, `E.set`, `I.t` and `E.t`;
// * in I a table, an action and a counter are all `@name("x")`: tables,
//   actions and each kind of extern instance are separate namespaces;
// * `@name("u")` in I is `I.u` while `@name(".u")` is `u`;
// * two actions both `@name("dup")`, only one used: p4c drops the unused
//   one before comparing names;
// * `Sub` instantiated twice gives `I.s1.st` and `I.s2.st`.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> f;
    bit<8> g;
}
struct headers { h_t h; }
struct metadata { }

parser P(packet_in pk, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout metadata m) { apply { } }

action fwd() { }

control Sub(inout headers hdr) {
    action mark(bit<8> v) { hdr.h.g = v; }
    table st {
        key = { hdr.h.g : exact; }
        actions = { mark; NoAction; }
    }
    apply { st.apply(); }
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    @name("x") counter(4, CounterType.packets) hits;
    action set(bit<9> port) { sm.egress_spec = port; }
    @name("x") action count_it() { hits.count(0); }
    @name("dup") action used_dup() { sm.egress_spec = 2; }
    @name("dup") action unused_dup() { sm.egress_spec = 3; }
    Sub() s1;
    Sub() s2;
    table t {
        key = { hdr.h.f : exact; }
        actions = { set; fwd; NoAction; }
    }
    @name("x") table by_x {
        key = { hdr.h.g : exact; }
        actions = { count_it; used_dup; NoAction; }
    }
    @name("u") table rel_u {
        key = { hdr.h.f : ternary; }
        actions = { fwd; NoAction; }
    }
    @name(".u") table abs_u {
        key = { hdr.h.g : ternary; }
        actions = { fwd; NoAction; }
    }
    apply {
        t.apply();
        by_x.apply();
        rel_u.apply();
        abs_u.apply();
        s1.apply(hdr);
        s2.apply(hdr);
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.f = v; }
    table t {
        key = { hdr.h.f : exact; }
        actions = { set; fwd; NoAction; }
    }
    apply { t.apply(); }
}

control CC(inout headers hdr, inout metadata m) { apply { } }

control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
