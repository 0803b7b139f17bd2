// STF rule: a struct inside a header is packed as on the wire; copying it
// to or from a struct outside the header copies member by member.
#include <core.p4>
#include <v1model.p4>

struct pair_t {
    bit<4> hi;
    bit<4> lo;
}

header h_t {
    bit<4> pad;
    pair_t p;
    bit<4> tail;
}

struct headers_t {
    h_t a;
    h_t b;
}

struct meta_t {
    pair_t saved;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.saved = hdr.a.p;
        meta.saved.lo = meta.saved.lo + 1;
        hdr.a.p = hdr.b.p;
        hdr.b.p = meta.saved;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
