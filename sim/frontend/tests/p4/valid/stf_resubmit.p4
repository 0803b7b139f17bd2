// STF rule: resubmit. When ingress ends after resubmit_preserving_field_list,
// the ORIGINAL packet (as received; header changes made by this ingress pass
// are discarded) runs through the parser and ingress again with instance_type
// RESUBMIT (6); only user metadata in the field list keeps its value. The
// first pass is not forwarded.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  x;
    bit<8>  keep;
    bit<8>  lost;
    bit<8>  itype;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> keep;
    bit<8> lost;
}

parser RsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            if (hdr.h.x == 1) {
                hdr.h.x = 0xaa;          // discarded by the resubmit
                meta.keep = 0x77;
                meta.lost = 0x99;
                sm.egress_spec = 3;      // not used: the packet is resubmitted
                resubmit_preserving_field_list(1);
            } else {
                sm.egress_spec = 2;
            }
        } else {
            hdr.h.keep = meta.keep;
            hdr.h.lost = meta.lost;
            hdr.h.itype = (bit<8>)sm.instance_type;
            sm.egress_spec = 2;
        }
    }
}

control RsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RsParser(), RsVerify(), RsIngress(), RsEgress(), RsCompute(),
         RsDeparser()) main;
