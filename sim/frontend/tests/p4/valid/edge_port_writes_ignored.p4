// STF rule (simple_switch): only egress_spec picks the output port. Writing
// standard_metadata.egress_port in ingress is ignored (the packet goes to
// egress_spec, 0 when never set); writing egress_port, or an egress_spec
// other than 511, in egress does not move the packet, which leaves on the
// port it was queued for. An I2E clone is made even when ingress drops the
// original.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8>  op;
    bit<8>  eport;
    bit<8>  it;
}

struct headers_t {
    op_t op;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        if (hdr.op.op == 1) {
            sm.egress_port = 3;
        } else if (hdr.op.op == 2) {
            sm.egress_spec = 2;
        } else if (hdr.op.op == 3) {
            clone(CloneType.I2E, 5);
            mark_to_drop(sm);
        }
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.op.eport = (bit<8>)sm.egress_port;
        hdr.op.it = (bit<8>)sm.instance_type;
        if (hdr.op.op == 2) {
            sm.egress_port = 3;
            sm.egress_spec = 4;
        }
    }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.op);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
