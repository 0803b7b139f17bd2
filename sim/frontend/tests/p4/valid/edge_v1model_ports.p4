// STF rule (simple_switch): egress_spec starts at 0, so a program that never
// sets it sends to port 0; mark_to_drop only writes 511, so a later write of
// egress_spec forwards again; egress_port reads 0 in ingress; egress_spec 511
// written directly drops like mark_to_drop; mcast_grp 0 is unicast; an I2E
// clone to a session the control plane never configured makes no copy;
// truncate below the header size cuts into the headers.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8>  op;
    bit<8>  seen;
    bit<16> eport;
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
        hdr.op.eport = (bit<16>)sm.egress_port;
        if (hdr.op.op == 1) {
            mark_to_drop(sm);
            sm.egress_spec = 3;
        } else if (hdr.op.op == 2) {
            sm.egress_spec = 2;
            sm.mcast_grp = 0;
        } else if (hdr.op.op == 3) {
            sm.egress_spec = 2;
            clone(CloneType.I2E, 9);
        } else if (hdr.op.op == 4) {
            sm.egress_spec = 4;
            truncate(2);
        } else if (hdr.op.op == 5) {
            sm.egress_spec = 511;
        } else if (hdr.op.op == 6) {
            sm.egress_spec = 3;
            mark_to_drop(sm);
        }
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.op.seen = (bit<8>)sm.egress_port;
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
