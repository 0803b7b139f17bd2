// STF rule (v1model mark_to_drop): mark_to_drop(sm) sets egress_spec to 511
// AND mcast_grp to 0. So a multicast group chosen before mark_to_drop is
// cancelled and the packet is dropped; a group set after it still
// replicates; and an egress_spec set after it unicasts (the group stays 0).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> port;   // egress_port, written in egress
    bit<8> rid;    // egress_rid, written in egress
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
        if (hdr.h.op == 1) {
            sm.mcast_grp = 1;
            mark_to_drop(sm);
        } else if (hdr.h.op == 2) {
            mark_to_drop(sm);
            sm.mcast_grp = 1;
        } else if (hdr.h.op == 3) {
            sm.mcast_grp = 1;
            mark_to_drop(sm);
            sm.egress_spec = 4;
        } else {
            sm.mcast_grp = 1;
            sm.egress_spec = 511;
        }
    }
}

control MdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.port = (bit<8>)sm.egress_port;
        hdr.h.rid = (bit<8>)sm.egress_rid;
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
