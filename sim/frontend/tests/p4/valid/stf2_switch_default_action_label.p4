// STF rule: `switch (t.apply().action_run)` selects by the action that ran,
// whether it ran because of a hit or as the default action on a miss: a
// miss whose default action has its own label runs that label, not
// `default`; a hit on an entry that uses the same action runs the same
// label. Changing the default action (STF setdefault) changes the label a
// miss reaches.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> act;
    bit<8> br;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action a1() { hdr.h.act = 1; }
    action a2() { hdr.h.act = 2; }
    action a3() { hdr.h.act = 3; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { a1; a2; a3; }
        default_action = a3();
    }
    apply {
        sm.egress_spec = 1;
        switch (t.apply().action_run) {
            a1: {
                hdr.h.br = 0x01;
            }
            a3: {
                hdr.h.br = 0x03;
            }
            default: {
                hdr.h.br = 0x0d;
            }
        }
    }
}

control SdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SdParser(), SdVerify(), SdIngress(), SdEgress(), SdCompute(),
         SdDeparser()) main;
