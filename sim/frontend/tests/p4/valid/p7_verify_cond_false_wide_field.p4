// bmv2 (Checksum::verify): a verify_checksum whose condition is false
// checks nothing, so a wrong checksum sets no checksum_error; a csum16
// checked against a 32-bit field matches only when the field's top 16 bits
// are 0 (the field's whole value is compared with the 16-bit sum).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  sel;
    bit<16> x;
    bit<16> c16;
    bit<32> c32;
}
header o_t {
    bit<8> err;
}
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t { }

parser VcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control VcVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(false, { hdr.h.x }, hdr.h.c16, HashAlgorithm.csum16);
        verify_checksum(hdr.h.sel == 1, { hdr.h.x }, hdr.h.c16, HashAlgorithm.csum16);
        verify_checksum(hdr.h.sel == 2, { hdr.h.x }, hdr.h.c32, HashAlgorithm.csum16);
    }
}
control VcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.err = (bit<8>) sm.checksum_error;
    }
}
control VcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control VcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control VcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}
V1Switch(VcParser(), VcVerify(), VcIngress(), VcEgress(), VcCompute(),
         VcDeparser()) main;
