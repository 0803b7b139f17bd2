// Nothing a packet writes is seen by the next one: locals of a control and
// of a sub-control, user metadata and headers made valid all start from
// zero (bmv2 resets metadata for each packet; p4c makes locals metadata).
// The sub-control's `inout` arguments are passed by reference, its `in`
// argument by copy.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
header out_t { bit<8> local; bit<8> meta; bit<8> sub; }
struct headers { h_t h; out_t o; h_t extra; }
struct meta_t { bit<8> m; bit<8> spare; }

parser P(packet_in pk, out headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control Sub(inout headers hdr, inout meta_t meta, in bit<8> k) {
    bit<8> seen;
    apply {
        if (k == 1) {
            seen = 0x5a;
            meta.spare = 0x77;
            hdr.extra.setValid();
            hdr.extra.a = 0xee;
        }
        hdr.o.sub = seen;
    }
}

control I(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub() sub;
    bit<8> local;
    apply {
        if (hdr.h.a == 1) {
            local = 0x11;
            meta.m = 0x22;
        }
        hdr.o.setValid();
        hdr.o.local = local;
        hdr.o.meta = meta.m;
        sub.apply(hdr, meta, hdr.h.a);
        hdr.h.b = meta.spare;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout meta_t meta) { apply { } }
control C(inout headers hdr, inout meta_t meta) { apply { } }
control D(packet_out pk, in headers hdr) {
    apply { pk.emit(hdr.h); pk.emit(hdr.o); pk.emit(hdr.extra); }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
