// STF rules for const entries and apply results: with `const entries` on a
// ternary table the first listed entry that matches wins; a miss runs the
// default action; `apply().hit`, `.miss` and `switch (apply().action_run)`
// report the outcome.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> key;
    bit<8> result;
    bit<8> outcome;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    action other() {
        hdr.h.result = 0xcc;
    }

    table classify {
        key = { hdr.h.key : ternary; }
        actions = { set_result; other; }
        default_action = other();
        const entries = {
            0x12 &&& 0xff : set_result(1);
            0x10 &&& 0xf0 : set_result(2);
            0x02 &&& 0x0f : set_result(3);
            0x80 &&& 0x80 : other();
        }
    }

    apply {
        sm.egress_spec = 1;
        switch (classify.apply().action_run) {
            set_result: {
                hdr.h.outcome = 0x01;
            }
            other: {
                hdr.h.outcome = 0x02;
            }
        }
        if (classify.apply().miss) {
            hdr.h.outcome = hdr.h.outcome | 0x10;
        }
    }
}

control CeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CeParser(), CeVerify(), CeIngress(), CeEgress(), CeCompute(),
         CeDeparser()) main;
