// STF rule: `switch (t.apply().action_run)` runs the case of the action the
// table ran. Labels without a body fall through to the next body (a1: a2:
// share one block); `default` catches every other action, including the
// default action run on a miss. The table is applied exactly once.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> act;     // written by the action
    bit<8> branch;  // written by the switch
    bit<8> applies; // how many times an action ran
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action a1() { hdr.h.act = 1; hdr.h.applies = hdr.h.applies + 1; }
    action a2() { hdr.h.act = 2; hdr.h.applies = hdr.h.applies + 1; }
    action a3() { hdr.h.act = 3; hdr.h.applies = hdr.h.applies + 1; }
    action a4() { hdr.h.act = 4; hdr.h.applies = hdr.h.applies + 1; }
    action miss_act() { hdr.h.act = 0xee; hdr.h.applies = hdr.h.applies + 1; }

    table t {
        key = { hdr.h.k : exact; }
        actions = { a1; a2; a3; a4; miss_act; }
        default_action = miss_act();
    }

    apply {
        sm.egress_spec = 1;
        switch (t.apply().action_run) {
            a1:
            a2: {
                hdr.h.branch = 0x12;
            }
            a3: {
                hdr.h.branch = 0x03;
            }
            default: {
                hdr.h.branch = 0xdd;
            }
        }
    }
}

control SwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SwParser(), SwVerify(), SwIngress(), SwEgress(), SwCompute(),
         SwDeparser()) main;
