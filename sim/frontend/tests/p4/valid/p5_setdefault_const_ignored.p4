// STF `setdefault` on a table whose default is `const default_action`:
// bmv2 refuses the change (DEFAULT_ENTRY_IS_CONST), the reference driver
// does not stop on a CLI error, so misses keep running the const default.
// A plain `default_action` beside it is replaced as usual.
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
    action other1(bit<8> v) { hdr.i.r1 = v ^ 8w0xff; }
    action set2(bit<8> v) { hdr.i.r2 = v; }
    action other2(bit<8> v) { hdr.i.r2 = v ^ 8w0xff; }
    table fixed {
        key = { hdr.i.k : exact; }
        actions = { set1; other1; }
        const default_action = set1(8w0x11);
    }
    table loose {
        key = { hdr.i.k : exact; }
        actions = { set2; other2; }
        default_action = set2(8w0x22);
    }
    apply {
        sm.egress_spec = 2;
        fixed.apply();
        loose.apply();
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
