// STF rule (simple_switch): several resubmit_preserving_field_list calls in one
// ingress pass: the last one wins (one resubmit, with the last call's field
// list). An E2E clone to a session the control plane never configured makes
// no copy; the original goes on.
#include <core.p4>
#include <v1model.p4>

header res_t {
    bit<8> op;
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> it;
}

struct headers_t {
    res_t res;
}

struct meta_t {
    @field_list(1)
    bit<8> a;
    @field_list(2)
    bit<8> b;
    bit<8> c;
}

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.res);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (sm.instance_type == 0) {
            meta.a = 0xaa;
            meta.b = 0xbb;
            meta.c = 0xcc;
            if (hdr.res.op == 1) {
                resubmit_preserving_field_list(1);
                resubmit_preserving_field_list(2);
            } else if (hdr.res.op == 2) {
                resubmit_preserving_field_list(2);
                resubmit_preserving_field_list(1);
            }
        }
        hdr.res.a = meta.a;
        hdr.res.b = meta.b;
        hdr.res.c = meta.c;
        hdr.res.it = (bit<8>)sm.instance_type;
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        if (hdr.res.op == 3) {
            clone(CloneType.E2E, 7);
        }
    }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
