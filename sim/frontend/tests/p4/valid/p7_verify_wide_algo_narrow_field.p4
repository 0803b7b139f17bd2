// bmv2 (CalcBasedChecksum::verify_): verify_checksum compares the whole
// result of the algorithm with the field's value, without cutting the
// result to the field's width: crc32 checked against a 16-bit field (or
// crc16 against an 8-bit one) matches only when the CRC's high bits are 0.
// update_checksum writes the result cut to the field's width.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  sel;
    bit<32> d;
    bit<16> c16;
    bit<8>  c8;
}
header o_t {
    bit<8> err;
}
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t { }

parser WnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control WnVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.h.sel == 1, { hdr.h.d }, hdr.h.c16, HashAlgorithm.crc32);
        verify_checksum(hdr.h.sel == 2, { hdr.h.d }, hdr.h.c8, HashAlgorithm.crc16);
    }
}
control WnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.err = (bit<8>) sm.checksum_error;
    }
}
control WnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control WnCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.h.sel == 3, { hdr.h.d }, hdr.h.c16, HashAlgorithm.crc32);
        update_checksum(hdr.h.sel == 3, { hdr.h.d }, hdr.h.c8, HashAlgorithm.crc16);
    }
}
control WnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}
V1Switch(WnParser(), WnVerify(), WnIngress(), WnEgress(), WnCompute(),
         WnDeparser()) main;
