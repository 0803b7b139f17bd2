// simple_switch pass chain: a recirculated packet (egress changes
// deparsed in) that is resubmitted from its ingress re-enters with the
// bytes it had when that ingress began (the recirculated bytes: egress
// changes kept, this ingress's changes discarded). The parser of each
// pass already sees that pass's instance_type and field-list metadata
// (bmv2 sets them before parsing).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> p_it;    // instance_type seen by the parser
    bit<8> p_m;     // meta.m seen by the parser
    bit<8> i_it;    // instance_type seen by a resubmitted ingress
    bit<8> mark1;   // written by the first egress
    bit<8> mark2;   // written by the recirculated ingress (discarded)
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1)
    bit<8> m;
}

parser RsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        hdr.h.p_it = (bit<8>)sm.instance_type;
        hdr.h.p_m = meta.m;
        transition accept;
    }
}

control RsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            sm.egress_spec = 2;
        } else if (sm.instance_type == 4) {
            hdr.h.mark2 = 0xbb;
            meta.m = 0x66;
            resubmit_preserving_field_list(1);
        } else {
            hdr.h.i_it = (bit<8>)sm.instance_type;
            sm.egress_spec = 3;
        }
    }
}

control RsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 1 && hdr.h.mark1 == 0) {
            hdr.h.mark1 = 0xaa;
            meta.m = 0x55;
            recirculate_preserving_field_list(1);
        }
    }
}

control RsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RsParser(), RsVerify(), Ing(), RsEgress(), RsCompute(),
         RsDeparser()) main;
