// STF rule: in a program's const entries, `_` matches any value even for
// an exact key; earlier entries win. A select case naming an (empty) value
// set as one element of a tuple keyset never matches.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> mark;
    bit<8> result;
}

struct headers_t {
    h_t h;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<8>>(4) special;

    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a, hdr.h.b) {
            (special, _): marked;
            default: accept;
        }
    }

    state marked {
        hdr.h.mark = 0xee;
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) {
        hdr.h.result = v;
    }

    table t {
        key = {
            hdr.h.a : exact;
            hdr.h.b : exact;
        }
        actions = {
            set;
        }
        const entries = {
            (1, 2) : set(0x12);
            (1, _) : set(0x10);
            (_, 2) : set(0x02);
            (_, _) : set(0xff);
        }
    }

    apply {
        sm.egress_spec = 2;
        t.apply();
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
        pkt.emit(hdr.h);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
