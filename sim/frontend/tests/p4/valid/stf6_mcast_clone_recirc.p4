// simple_switch: each multicast copy runs egress on its own. In one group,
// the copy for port 2 makes an E2E clone (headers as egress left them,
// metadata zero, instance_type 2, egress_rid 0) while the copy for port 3
// recirculates (deparsed, back to ingress with instance_type 4); the
// recirculated pass unicasts with instance_type 0 and egress_rid 0.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> pass;
    bit<8> it_in;   // instance_type seen by ingress
    bit<8> it_eg;   // instance_type seen by egress
    bit<8> eport;   // egress_port seen by egress
    bit<8> rid;     // egress_rid seen by egress
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> keep;
}

parser McrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control McrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control McrIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.h.pass = hdr.h.pass + 1;
        hdr.h.it_in = (bit<8>)sm.instance_type;
        if (sm.instance_type == 0) {
            sm.mcast_grp = 1;
        } else {
            sm.egress_spec = 5;
        }
    }
}

control McrEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.it_eg = (bit<8>)sm.instance_type;
        hdr.h.eport = (bit<8>)sm.egress_port;
        hdr.h.rid = (bit<8>)sm.egress_rid;
        if (sm.instance_type == 5 && sm.egress_port == 2) {
            clone(CloneType.E2E, 3);
        } else if (sm.instance_type == 5 && sm.egress_port == 3) {
            recirculate_preserving_field_list(1);
        }
    }
}

control McrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control McrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(McrParser(), McrVerify(), McrIngress(), McrEgress(), McrCompute(),
         McrDeparser()) main;
