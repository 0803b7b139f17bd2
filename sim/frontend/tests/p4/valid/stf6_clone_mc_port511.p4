// simple_switch: a clone session may point at a multicast group
// (mirroring_add_mc). The PRE makes one copy per node port with no pruning:
// a node on the ingress port sends a copy back out of it, and a node on
// port 511 still gets a copy that runs egress with egress_port 511 (511
// only drops when it is egress_spec at the end of ingress or egress).
// Copies of an I2E clone keep instance_type 1 and get the node's rid.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  x;
    bit<8>  it;
    bit<8>  rid;
    bit<16> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.x = 0xaa;
        sm.egress_spec = 2;
        clone(CloneType.I2E, 6);
    }
}

control CmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.it = (bit<8>)sm.instance_type;
        if (sm.instance_type != 2) {
            hdr.h.rid = (bit<8>)sm.egress_rid;
            hdr.h.eport = (bit<16>)sm.egress_port;
        }
        if (sm.egress_port == 511) {
            // make the copy for port 511 visible through an E2E clone
            clone(CloneType.E2E, 8);
        }
    }
}

control CmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CmParser(), CmVerify(), CmIngress(), CmEgress(), CmCompute(),
         CmDeparser()) main;
