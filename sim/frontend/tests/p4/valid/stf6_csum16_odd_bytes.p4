// bmv2 csum16 (cksum16): the data bytes are summed as 16-bit big-endian
// words with end-around carry and the result is complemented; an odd
// number of bytes is padded with one zero byte at the end. With
// update_checksum_with_payload the payload bytes follow the fields.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<16> b;
    bit<16> c1;   // csum16 over {a, b}: 3 bytes
    bit<16> c2;   // csum16 over {a} and the payload
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser OdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control OdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}

control OdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control OdCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { hdr.h.a, hdr.h.b }, hdr.h.c1,
                        HashAlgorithm.csum16);
        update_checksum_with_payload(true, { hdr.h.a }, hdr.h.c2,
                                     HashAlgorithm.csum16);
    }
}

control OdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(OdParser(), OdVerify(), OdIngress(), OdEgress(), OdCompute(),
         OdDeparser()) main;
