// bmv2: verify_checksum over a 4-bit and a 12-bit field with crc16 checks
// the CRC of the two packed bytes; with csum16 the Internet checksum of
// them. A mismatch sets checksum_error; the packet goes on.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<4>  ver;
    bit<12> id;
    bit<16> c_crc;
    bit<16> c_csum;
}
header o_t {
    bit<8> err;
}
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t { }

parser VuParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control VuVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.h.isValid(), { hdr.h.ver, hdr.h.id }, hdr.h.c_crc,
                        HashAlgorithm.crc16);
        verify_checksum(hdr.h.isValid(), { hdr.h.ver, hdr.h.id }, hdr.h.c_csum,
                        HashAlgorithm.csum16);
    }
}
control VuIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.err = (bit<8>) sm.checksum_error;
    }
}
control VuEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control VuCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control VuDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}
V1Switch(VuParser(), VuVerify(), VuIngress(), VuEgress(), VuCompute(),
         VuDeparser()) main;
