// STF rules for standard_metadata in egress: egress_port is the port chosen
// by egress_spec, ingress_port is preserved, instance_type is 0 for a normal
// unicast packet, and packet_length is the length of the packet as received.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> want;       // egress_spec requested by the packet
    bit<16> in_port;
    bit<16> out_port;
    bit<32> itype;
    bit<32> length;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = (bit<9>)hdr.h.want;
    }
}

control SmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.in_port = (bit<16>)sm.ingress_port;
        hdr.h.out_port = (bit<16>)sm.egress_port;
        hdr.h.itype = sm.instance_type;
        hdr.h.length = sm.packet_length;
    }
}

control SmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SmParser(), SmVerify(), SmIngress(), SmEgress(), SmCompute(),
         SmDeparser()) main;
