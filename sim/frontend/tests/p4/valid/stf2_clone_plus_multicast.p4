// STF rule (simple_switch after-ingress pseudocode): the I2E clone is made
// first and independently of what happens to the original: with mcast_grp
// set, the original is replicated to the group (instance_type 5, ingress
// changes kept) AND the clone goes to its session's port (instance_type 1,
// the packet as received). If the original is dropped, the clone still goes.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> x;
    bit<8> itype;
    bit<8> rid;
    bit<8> port;
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
        sm.mcast_grp = 1;
        clone(CloneType.I2E, 5);
        if (hdr.h.op == 2) {
            mark_to_drop(sm);
        }
    }
}

control CmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.itype = (bit<8>)sm.instance_type;
        hdr.h.rid = (bit<8>)sm.egress_rid;
        hdr.h.port = (bit<8>)sm.egress_port;
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
