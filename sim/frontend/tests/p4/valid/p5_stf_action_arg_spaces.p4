// STF action argument lists with spaces: the reference driver splits the
// arguments on commas and each on its colon, trimming spaces, so
// `set(a : 1,  b:0x2 )` and `set(b:3,a:4)` both work; the key before them
// is one word.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
    bit<8> a;
    bit<8> b;
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
    action set(bit<8> a, bit<8> b) { hdr.i.a = a; hdr.i.b = b; }
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
