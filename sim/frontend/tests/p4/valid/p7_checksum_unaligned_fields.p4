// bmv2 (BufBuilder, calculations.cpp): update_checksum over fields that
// are not whole bytes packs their bits most significant first (a 4-bit
// and a 12-bit field make two bytes, in the list's order, not the
// header's); a constant counts at its width, and an odd byte count is
// padded with a zero byte for csum16. csum16, crc16 and xor16 run on the
// same bytes.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<4>  ver;
    bit<12> id;
    bit<16> c_csum;
    bit<16> c_crc;
    bit<16> c_xor;
    bit<16> c_swap;
    bit<16> c_const;
    bit<16> c_const_crc;
}
struct headers_t {
    h_t h;
}
struct meta_t { }

parser CuParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control CuVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control CuIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}
control CuEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control CuCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { hdr.h.ver, hdr.h.id }, hdr.h.c_csum,
                        HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.ver, hdr.h.id }, hdr.h.c_crc,
                        HashAlgorithm.crc16);
        update_checksum(true, { hdr.h.ver, hdr.h.id }, hdr.h.c_xor,
                        HashAlgorithm.xor16);
        update_checksum(true, { hdr.h.id, hdr.h.ver }, hdr.h.c_swap,
                        HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.ver, hdr.h.id, 8w0x11 }, hdr.h.c_const,
                        HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.ver, hdr.h.id, 8w0x11 }, hdr.h.c_const_crc,
                        HashAlgorithm.crc16);
    }
}
control CuDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}
V1Switch(CuParser(), CuVerify(), CuIngress(), CuEgress(), CuCompute(),
         CuDeparser()) main;
