// `for` conditions that call a function, short-circuit a table apply, or
// apply a table whose key calls a function: each is evaluated afresh
// before every iteration, as its own test would be, and the right side
// of `&&` runs only when the left holds.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers { h_t h; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control V(inout headers hdr, inout meta_t m) { apply { } }

bit<8> plus_one(in bit<8> v) { return v + 1; }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(2, CounterType.packets) applied;
    action bump_b() { hdr.h.b = hdr.h.b + 1; applied.count(0); }
    table t {
        key = { hdr.h.a : exact; }
        actions = { bump_b; NoAction; }
        default_action = NoAction();
    }
    action bump_d() { hdr.h.d = hdr.h.d + 1; applied.count(1); }
    table u {
        key = { plus_one(hdr.h.c) : exact @name("c_plus_one"); }
        actions = { bump_d; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        // Runs while i < plus_one(a): a + 1 times.
        for (bit<8> i = 0; i < plus_one(hdr.h.a); i = i + 1) {
            hdr.h.c = hdr.h.c + 1;
        }
        // t is applied only while i < 2 holds.
        for (bit<8> i = 0; i < 2 && t.apply().hit; i = i + 1) { }
        // u's key is computed before every apply: c + 1 changes as the
        // body counts c up.
        for (bit<8> j = 0; u.apply().hit && j < 5; j = j + 1) {
            hdr.h.c = hdr.h.c + 1;
        }
    }
}
control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
