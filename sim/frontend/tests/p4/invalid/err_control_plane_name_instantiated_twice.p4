// Invalid: the table of `Sub` has the absolute name `.t0`, and `Sub` is
// instantiated twice, so P4Info would hold two tables named `t0`; the
// second instance is reported (code E0408).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
struct headers { h_t h; }
struct metadata { }

parser P(packet_in pk, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout metadata m) { apply { } }

control Sub(inout headers hdr) {
    action mark(bit<8> v) { hdr.h.f = v; }
    @name(".t0") table t {
        key = { hdr.h.f : exact; }
        actions = { mark; NoAction; }
    }
    apply { t.apply(); }
}

control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
    Sub() s1;
    Sub() s2; // error: E0408
    apply {
        s1.apply(hdr);
        s2.apply(hdr);
    }
}

control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
