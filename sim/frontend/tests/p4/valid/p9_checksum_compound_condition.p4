// verify_checksum and update_checksum whose condition is more than a
// validity test: the checksum is checked (or written) only while the whole
// condition holds. The egress port shows checksum_error (2: set, 1: not).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<4> version; bit<4> ihl; bit<8> tag; bit<16> csum; }
struct headers { h_t h; }
struct meta_t { bool fix; }

parser P(packet_in pk, out headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control V(inout headers hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.h.isValid() && hdr.h.ihl == 5,
                        { hdr.h.version, hdr.h.ihl, hdr.h.tag }, hdr.h.csum,
                        HashAlgorithm.csum16);
    }
}

control I(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = sm.checksum_error == 1 ? 9w2 : 9w1;
        meta.fix = hdr.h.tag == 0xff;
    }
}

control E(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }

control C(inout headers hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.h.isValid() && meta.fix,
                        { hdr.h.version, hdr.h.ihl, hdr.h.tag }, hdr.h.csum,
                        HashAlgorithm.csum16);
    }
}

control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), V(), I(), E(), C(), D()) main;
