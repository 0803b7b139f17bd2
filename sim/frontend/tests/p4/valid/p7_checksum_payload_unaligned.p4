// bmv2 (BufBuilder with a payload entry): *_with_payload checksums pad
// the fields' bits to whole bytes, then append the payload bytes (an odd
// count is padded with a zero byte by csum16). With the condition false
// neither the update nor the verify runs.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  sel;
    bit<16> csum;
    bit<12> t;
    bit<4>  p;
}
header o_t {
    bit<8> err;
}
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t { }

parser PuParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control PuVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum_with_payload(hdr.h.sel == 1, { hdr.h.t }, hdr.h.csum,
                                     HashAlgorithm.csum16);
    }
}
control PuIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.err = (bit<8>) sm.checksum_error;
    }
}
control PuEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control PuCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum_with_payload(hdr.h.sel == 2, { hdr.h.t }, hdr.h.csum,
                                     HashAlgorithm.csum16);
    }
}
control PuDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}
V1Switch(PuParser(), PuVerify(), PuIngress(), PuEgress(), PuCompute(),
         PuDeparser()) main;
