// Adding an entry whose key is already in an exact table: bmv2 refuses it
// (DUPLICATE_ENTRY), the reference driver goes on, and the first entry
// stays.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
    bit<8> r;
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
    action set(bit<8> v) { hdr.i.r = v; }
    table t {
        key = { hdr.i.k : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
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
