// STF ternary keys written in octal: the reference driver takes `0o`
// numbers as it takes hex and binary ones, a mask of all ones (7) for each
// written digit and 0 for each `*`, so `0o1*` on a 6-bit key matches 0o10
// to 0o17.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<6> k;
    bit<2> pad;
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
        key = { hdr.i.k : ternary; }
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
