// `switch (t.apply().action_run)` with grouped labels and `default`: a
// miss runs the default action and takes that action's label if it has
// one (here `drop_it` is listed, NoAction is not and goes to `default`).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
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
    action a1() { }
    action a2() { }
    action drop_it() { }
    table t {
        key = { hdr.i.k : exact; }
        actions = { a1; a2; drop_it; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        switch (t.apply().action_run) {
            a1:
            a2: { hdr.i.tag = 8w0x12; }
            drop_it: { hdr.i.tag = 8w0xdd; }
            default: { hdr.i.tag = 8w0xff; }
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
