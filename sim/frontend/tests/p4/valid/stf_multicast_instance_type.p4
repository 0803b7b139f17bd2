// STF rule: multicast copies reach egress with instance_type REPLICATION (5),
// as bmv2 simple_switch sets it before replicating; a plain unicast packet
// has instance_type NORMAL (0).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> group;
    bit<32> itype;   // written by egress
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser ItParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ItVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ItIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.mcast_grp = hdr.h.group;
        sm.egress_spec = 1;
    }
}

control ItEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.itype = sm.instance_type;
    }
}

control ItCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ItDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ItParser(), ItVerify(), ItIngress(), ItEgress(), ItCompute(),
         ItDeparser()) main;
