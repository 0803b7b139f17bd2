// v1model verify_checksum_with_payload (bmv2): in the verify control, the
// checksum is computed over the listed fields followed by the payload (the
// bytes the parser did not extract; csum16 pads an odd length with a zero
// byte at the end, as RFC 1071); a mismatch sets
// standard_metadata.checksum_error to 1, which ingress can read; the
// packet is not dropped. A false condition skips the check.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> csum;
    bit<8>  a;
    bit<8>  b;
    bit<8>  err;
}

struct headers_t { h_t h; }
struct meta_t { }

parser VcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control VcVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum_with_payload(hdr.h.b != 0, { hdr.h.a, hdr.h.b },
                                     hdr.h.csum, HashAlgorithm.csum16);
    }
}

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        hdr.h.err = (bit<8>)sm.checksum_error;
        sm.egress_spec = 2;
    }
}

control VcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control VcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control VcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(VcParser(), VcVerify(), Ing(), VcEgress(), VcCompute(),
         VcDeparser()) main;
