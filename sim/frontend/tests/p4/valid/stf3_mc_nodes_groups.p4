// STF rule (multicast commands): mc_node_create <rid> <ports...> returns
// node handles 0, 1, 2, ... in creation order, whether groups exist yet or
// not; mc_node_associate <group> <handle> adds a node to a group. A packet
// with mcast_grp = G gets one copy per (node, port) of G, each with its
// node's egress_rid, including a copy back to the ingress port. A group
// with no nodes, or a group never created, makes no copies (and, since
// mcast_grp is set, no unicast either).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> grp;
    bit<16> rid;
    bit<16> port;
}

struct headers_t { h_t h; }
struct meta_t { }

parser McParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control McVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 6;
        sm.mcast_grp = hdr.h.grp;
    }
}

control McEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.rid = sm.egress_rid;
        hdr.h.port = (bit<16>)sm.egress_port;
    }
}

control McCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control McDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(McParser(), McVerify(), Ing(), McEgress(), McCompute(),
         McDeparser()) main;
