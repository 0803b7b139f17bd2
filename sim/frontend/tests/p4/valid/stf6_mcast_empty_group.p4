// simple_switch end of ingress: when mcast_grp != 0 the packet is
// replicated to the group's nodes and the original is discarded, whatever
// egress_spec says. A group with no nodes, or a group id the PRE does not
// know, gives zero copies: nothing is sent, even with egress_spec set to a
// port. Writing mcast_grp back to 0 restores unicast.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 3;
        if (hdr.h.op == 1) {
            sm.mcast_grp = 1;            // empty group
        } else if (hdr.h.op == 2) {
            mark_to_drop(sm);
            sm.mcast_grp = 1;            // empty group after a drop
        } else if (hdr.h.op == 3) {
            sm.mcast_grp = 9;            // group never created
        } else if (hdr.h.op == 4) {
            sm.mcast_grp = 2;            // group with one node on port 2
        } else if (hdr.h.op == 5) {
            sm.mcast_grp = 1;
            sm.mcast_grp = 0;            // back to unicast
        }
    }
}

control MeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control MeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MeParser(), MeVerify(), MeIngress(), MeEgress(), MeCompute(),
         MeDeparser()) main;
