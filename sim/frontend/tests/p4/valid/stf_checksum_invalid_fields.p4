// STF rule (bmv2 calculations): in update_checksum, the fields of headers
// that are invalid when the checksum is computed are left out of the data,
// even if their storage still holds values.
#include <core.p4>
#include <v1model.p4>

header base_t {
    bit<8>  tag;
    bit<8>  pad;
    bit<16> csum;
}

header opt_t {
    bit<16> v;
}

struct headers_t {
    base_t base;
    opt_t  opt;
}

struct meta_t { }

parser CiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.base);
        transition select(hdr.base.tag) {
            0       : accept;
            default : parse_opt;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt);
        transition accept;
    }
}

control CiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.base.tag == 2) {
            hdr.opt.setInvalid();
        }
    }
}

control CiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CiCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true,
            { hdr.base.tag, hdr.base.pad, hdr.opt.v },
            hdr.base.csum, HashAlgorithm.csum16);
    }
}

control CiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.base);
        pkt.emit(hdr.opt);
    }
}

V1Switch(CiParser(), CiVerify(), CiIngress(), CiEgress(), CiCompute(),
         CiDeparser()) main;
