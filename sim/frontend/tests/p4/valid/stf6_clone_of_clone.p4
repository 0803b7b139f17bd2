// simple_switch: a clone can be cloned again. An I2E clone (instance_type
// 1) that calls clone(E2E) in its egress makes a copy of itself as its
// egress left it; that copy runs egress again with instance_type 2 on the
// second session's port. The original is unaffected.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> x;
    bit<8> t1;     // instance_type of the first egress this data went through
    bit<8> t2;     // instance_type of the last egress
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.x = 0xaa;
        sm.egress_spec = 2;
        clone(CloneType.I2E, 1);
    }
}

control CcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type != 2) {
            hdr.h.t1 = (bit<8>)sm.instance_type;
        }
        hdr.h.t2 = (bit<8>)sm.instance_type;
        hdr.h.eport = (bit<8>)sm.egress_port;
        if (sm.instance_type == 1) {
            clone(CloneType.E2E, 2);
        }
    }
}

control CcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CcParser(), CcVerify(), CcIngress(), CcEgress(), CcCompute(),
         CcDeparser()) main;
