// Invalid: two applied tables of one control both have @name("t"), so
// P4Info would hold two tables named `I.t` (code E0408).
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
    action set(bit<9> port) { sm.egress_spec = port; }
    @name("t") table t1 {
        key = { hdr.h.f : exact; }
        actions = { set; NoAction; }
    }
    @name("t") table t2 { // error: E0408
        key = { hdr.h.f : exact; }
        actions = { set; NoAction; }
    }
    apply { t1.apply(); t2.apply(); }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
