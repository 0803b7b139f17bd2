// bmv2 (BufBuilder): a checksum's list may name whole headers: a valid
// header adds all its bytes, an invalid one adds nothing. xor16 pads an
// odd byte count with a zero byte; crc32 with payload runs over the
// headers' bytes then the payload.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8>  tag;
    bit<16> x;
}
header opt_t {
    bit<8> o;
}
header c_t {
    bit<16> s_csum;
    bit<16> s_xor;
    bit<32> s_crc;
}
struct headers_t {
    a_t   a;
    opt_t opt;
    c_t   c;
}
struct meta_t { }

parser WhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(hdr.a.tag) {
            1: get_opt;
            default: get_c;
        }
    }
    state get_opt {
        pkt.extract(hdr.opt);
        transition get_c;
    }
    state get_c {
        pkt.extract(hdr.c);
        transition accept;
    }
}
control WhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control WhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}
control WhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control WhCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { hdr.a, hdr.opt }, hdr.c.s_csum, HashAlgorithm.csum16);
        update_checksum(true, { hdr.a, hdr.opt }, hdr.c.s_xor, HashAlgorithm.xor16);
        update_checksum_with_payload(true, { hdr.a, hdr.opt }, hdr.c.s_crc,
                                     HashAlgorithm.crc32);
    }
}
control WhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.c);
    }
}
V1Switch(WhParser(), WhVerify(), WhIngress(), WhEgress(), WhCompute(),
         WhDeparser()) main;
