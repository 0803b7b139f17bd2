// bmv2 Parser::verify_checksums runs every verify_checksum and only ever sets
// the packet's checksum error to true (set_checksum_error(true) on a
// mismatch, never back to false); simple_switch then writes checksum_error
// = 1. So with two calls, a failing first one followed by a passing second
// one still leaves checksum_error 1; the packet is not dropped.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<16> d1;
    bit<16> d2;
    bit<16> csum;
}

header r_t { bit<8> cerr; }

struct headers_t { a_t a; a_t b; r_t r; }
struct meta_t { }

parser CeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        pkt.extract(hdr.r);
        transition accept;
    }
}

control CeVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(true, { hdr.a.d1, hdr.a.d2 }, hdr.a.csum,
                        HashAlgorithm.csum16);
        verify_checksum(true, { hdr.b.d1, hdr.b.d2 }, hdr.b.csum,
                        HashAlgorithm.csum16);
    }
}

control CeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.cerr = (bit<8>)sm.checksum_error;
        sm.egress_spec = 2;
    }
}

control CeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control CeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.a); pkt.emit(hdr.b); pkt.emit(hdr.r); }
}

V1Switch(CeParser(), CeVerify(), CeIngress(), CeEgress(), CeCompute(),
         CeDeparser()) main;
