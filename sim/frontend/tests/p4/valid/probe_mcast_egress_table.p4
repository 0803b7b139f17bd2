// Probe (v1model multicast, simple_switch PRE): mc_mgrp_create,
// mc_node_create <rid> <ports...> and mc_node_associate build a group; each
// copy reaches egress with egress_port and egress_rid set (instance_type 5
// for replicas); an egress table keyed on egress_port rewrites per port and
// may drop one copy with mark_to_drop. A unicast packet has egress_rid 0.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> grp; bit<8> port; bit<8> rid; bit<8> itype; bit<8> tag; }
struct headers_t { h_t h; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.grp != 0) {
            sm.mcast_grp = (bit<16>)hdr.h.grp;
        } else {
            sm.egress_spec = 4;
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    action tag_it(bit<8> t) { hdr.h.tag = t; }
    action drop_it() { mark_to_drop(sm); }
    table per_port {
        key = { sm.egress_port : exact; }
        actions = { tag_it; drop_it; NoAction; }
        default_action = NoAction();
    }
    apply {
        hdr.h.port = (bit<8>)sm.egress_port;
        hdr.h.rid = (bit<8>)sm.egress_rid;
        hdr.h.itype = (bit<8>)sm.instance_type;
        per_port.apply();
    }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
