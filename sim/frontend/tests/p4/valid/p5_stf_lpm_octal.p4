// STF lpm keys in octal: trailing `*` digits give the prefix length at 3
// bits a digit (0o7** on a 9-bit key is 0o700/3), and `value/len` works in
// octal too.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<9> k;
    bit<7> pad;
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
        key = { hdr.i.k : lpm; }
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
