// `exit` in a table's default action, inside a nested control: the rest of
// the nested control and of ingress is skipped, the inout arguments are
// still copied back (the action's write and the one before the table
// survive), and egress runs as usual.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
    bit<8> r4;
}

struct headers_t {
    in_t i;
}

struct meta_t {
}

control Inner(inout headers_t h, inout standard_metadata_t s) {
    action stop() { h.i.r2 = 8w0x22; exit; }
    action go(bit<8> v) { h.i.r2 = v; }
    table t {
        key = { h.i.k : exact; }
        actions = { go; stop; }
        default_action = stop();
    }
    apply {
        s.egress_spec = 2;
        h.i.r1 = 8w0x11;
        t.apply();
        h.i.r3 = 8w0x33;
    }
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
    Inner() inner;
    apply {
        inner.apply(hdr, sm);
        hdr.i.r4 = 8w0x44;
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply {
        hdr.i.k = hdr.i.k | 8w0x80;
    }
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
