// A table without a key always runs its default action; STF `setdefault`
// replaces it (action and data) for the following packets, and the
// `action_run` switch sees the new action.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    bit<8> tag;
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
    action seta(bit<8> v) { hdr.i.a = v; }
    action setb(bit<8> v) { hdr.i.b = v; }
    table cfg {
        actions = { seta; setb; }
        default_action = seta(8w0x01);
    }
    apply {
        sm.egress_spec = 2;
        switch (cfg.apply().action_run) {
            seta: { hdr.i.tag = 8w0xaa; }
            setb: { hdr.i.tag = 8w0xbb; }
        }
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
