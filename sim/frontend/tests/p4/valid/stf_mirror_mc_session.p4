// STF rule: a clone session bound to a multicast group (STF
// `mirroring_add_mc <session> <group>`). An I2E clone to it makes one copy
// per (node, port) of the group, each with instance_type 1 (INGRESS_CLONE),
// the node's rid in egress_rid, and the packet as received (ingress header
// changes are not in the clones). The original is forwarded as usual.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> x;
    bit<8> itype;
    bit<8> rid;
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.x = 0xaa;
        if (hdr.h.op == 1) {
            clone(CloneType.I2E, 4);
        }
    }
}

control MmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.itype = (bit<8>)sm.instance_type;
        hdr.h.rid = (bit<8>)sm.egress_rid;
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control MmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MmParser(), MmVerify(), MmIngress(), MmEgress(), MmCompute(),
         MmDeparser()) main;
