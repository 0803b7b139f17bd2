// Invalid: the top-level action `a` is named `a` for the control plane, and
// so is `b` by its absolute @name; both are used, so two actions share the
// name (code E0408).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
struct headers { h_t h; }
struct metadata { }

parser P(packet_in pk, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout metadata m) { apply { } }

action a() { }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    @name(".a") action b() { sm.egress_spec = 1; } // error: E0408
    table t {
        key = { hdr.h.f : exact; }
        actions = { a; b; }
        default_action = a();
    }
    apply { t.apply(); }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
