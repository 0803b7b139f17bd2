// STF rule: each multicast copy runs egress on its own, with egress_rid and
// egress_port set; mark_to_drop in egress drops only that copy (the others
// still leave). The drop is decided by egress_spec at the END of egress: a
// copy whose egress_spec is set back from 511 before egress ends is sent.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> rid;   // written by egress
    bit<8> port;  // written by egress
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.mcast_grp = 1;
    }
}

control MdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 0) {
            if (sm.egress_rid == 20) {
                mark_to_drop(sm);
            } else if (sm.egress_rid == 10 && sm.egress_port == 3) {
                mark_to_drop(sm);
            } else if (sm.egress_rid == 30) {
                mark_to_drop(sm);
                sm.egress_spec = 0;  // undone before egress ends: not dropped
            }
        }
        hdr.h.rid = (bit<8>)sm.egress_rid;
        hdr.h.port = (bit<8>)sm.egress_port;
    }
}

control MdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MdParser(), MdVerify(), MdIngress(), MdEgress(), MdCompute(),
         MdDeparser()) main;
