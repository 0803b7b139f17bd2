// bmv2 checksum/hash algorithms over an empty data list: crc32 starts at
// ffffffff and ends with a final xor ffffffff, so no data gives 00000000;
// csum16 of no data is the complement of a zero sum, ffff; crc16 (no
// initial value, no final xor) gives 0000. update_checksum with `{}`
// writes these values.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> crc32v;
    bit<16> csum;
    bit<16> crc16v;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser EdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}

control EdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EdCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { }, hdr.h.crc32v, HashAlgorithm.crc32);
        update_checksum(true, { }, hdr.h.csum, HashAlgorithm.csum16);
        update_checksum(true, { }, hdr.h.crc16v, HashAlgorithm.crc16);
    }
}

control EdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EdParser(), EdVerify(), EdIngress(), EdEgress(), EdCompute(),
         EdDeparser()) main;
