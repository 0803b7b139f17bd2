// Invalid: two actions of one control both have @name("x"), so both are
// `I.x` for the control plane (code E0408).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
struct headers { h_t h; }
struct metadata { }

parser P(packet_in pk, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout metadata m) { apply { } }

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    @name("x") action set_one() { sm.egress_spec = 1; }
    @name("x") action set_two() { sm.egress_spec = 2; } // error: E0408
    table t {
        key = { hdr.h.f : exact; }
        actions = { set_one; set_two; }
        default_action = set_one();
    }
    apply { t.apply(); }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
