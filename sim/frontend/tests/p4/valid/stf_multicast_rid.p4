// STF rules for multicast: when ingress ends with mcast_grp != 0, the packet
// is replicated once per port of each node of the group, each copy carrying
// its node's replication id in egress_rid; no unicast copy is sent, even if
// egress_spec was set.
#include <core.p4>
#include <v1model.p4>

header mc_t {
    bit<16> group;
    bit<16> uport;     // egress_spec to set in ingress
    bit<16> rid;       // written by egress
    bit<16> eport;     // written by egress
}

struct headers_t {
    mc_t mc;
}

struct meta_t { }

parser McParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.mc);
        transition accept;
    }
}

control McVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control McIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = (bit<9>)hdr.mc.uport;
        sm.mcast_grp = hdr.mc.group;
    }
}

control McEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.mc.rid = sm.egress_rid;
        hdr.mc.eport = (bit<16>)sm.egress_port;
    }
}

control McCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control McDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.mc);
    }
}

V1Switch(McParser(), McVerify(), McIngress(), McEgress(), McCompute(),
         McDeparser()) main;
