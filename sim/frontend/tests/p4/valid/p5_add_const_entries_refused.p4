// STF `add` on a table with `const entries`: bmv2 loads those entries and
// then marks the table immutable, so a control-plane add is refused
// (IMMUTABLE_TABLE_ENTRIES); the reference driver goes on, and the key
// keeps missing. A table without const entries beside it takes the add.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
    bit<8> r1;
    bit<8> r2;
}

struct headers_t {
    in_t i;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    action set1(bit<8> v) { hdr.i.r1 = v; }
    action set2(bit<8> v) { hdr.i.r2 = v; }
    table fixed {
        key = { hdr.i.k : exact; }
        actions = { set1; NoAction; }
        const entries = {
            8w1 : set1(8w0x11);
        }
        default_action = NoAction();
    }
    table open {
        key = { hdr.i.k : exact; }
        actions = { set2; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        fixed.apply();
        open.apply();
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
