// Invalid: two counters of one control both have @name("c"), so P4Info
// would hold two counters named `I.c` (code E0408).
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
    @name("c") counter(1, CounterType.packets) c1;
    @name("c") counter(1, CounterType.packets) c2; // error: E0408
    apply {
        c1.count(0);
        c2.count(0);
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
