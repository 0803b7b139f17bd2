// A table whose key calls a function, applied in the initialiser of a
// control-local variable: the key is computed before the initialiser runs.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; }
struct headers { h_t h; }
struct meta_t { }

bit<8> twice(in bit<8> x) { return x + x; }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control V(inout headers hdr, inout meta_t m) { apply { } }
control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set_b(bit<8> v) { hdr.h.b = v; }
    action set_c(bit<8> v) { hdr.h.c = v; }
    table t {
        key = {
            twice(hdr.h.a) + 1 : exact @name("a_twice_plus_1");
            hdr.h.b : exact;
        }
        actions = { set_b; NoAction; }
        default_action = NoAction();
    }
    table u {
        key = { twice(hdr.h.b) : exact @name("b_twice"); }
        actions = { set_c; NoAction; }
        default_action = NoAction();
    }
    bool t_hit = t.apply().hit;
    apply {
        if (hdr.h.a != 0 && t_hit) {
            u.apply();
        } else {
            switch (u.apply().action_run) {
                set_c: { hdr.h.a = 0xee; }
            }
        }
    }
}
control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
