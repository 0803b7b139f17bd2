// STF rule: recirculate. After egress, a packet that called
// recirculate_preserving_field_list is deparsed (egress changes included)
// and sent back to the parser and ingress with instance_type RECIRC (4),
// instead of leaving; only user metadata in the field list keeps its value.
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

parser RcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 4) {
            hdr.h.keep = meta.keep;
            hdr.h.lost = meta.lost;
            hdr.h.itype = (bit<8>)sm.instance_type;
            sm.egress_spec = 2;
        } else {
            sm.egress_spec = 3;
        }
    }
}

control RcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0 && hdr.h.x == 1) {
            hdr.h.x = 0xbb;              // kept: the deparsed packet recirculates
            meta.keep = 0x55;
            meta.lost = 0x66;
            recirculate_preserving_field_list(1);
        }
    }
}

control RcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RcParser(), RcVerify(), RcIngress(), RcEgress(), RcCompute(),
         RcDeparser()) main;
