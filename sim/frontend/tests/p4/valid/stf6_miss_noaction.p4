// P4_16 tables: on a miss with `default_action = NoAction()` the table runs
// NoAction: `.hit` is false, `.miss` is true, and `action_run` is NoAction
// (so the NoAction label of a switch runs, not `default`). A hit whose
// entry's action is NoAction is still a hit.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> hit;
    bit<8> miss;
    bit<8> run;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action setv(bit<8> v) {
        hdr.h.k = v;
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { setv; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        hdr.h.hit = 0;
        hdr.h.miss = 0;
        if (t.apply().hit) {
            hdr.h.hit = 1;
        }
        if (t.apply().miss) {
            hdr.h.miss = 1;
        }
        switch (t.apply().action_run) {
            NoAction: { hdr.h.run = 0xa0; }
            default:  { hdr.h.run = 0xdd; }
        }
    }
}

control MnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MnParser(), MnVerify(), MnIngress(), MnEgress(), MnCompute(),
         MnDeparser()) main;
