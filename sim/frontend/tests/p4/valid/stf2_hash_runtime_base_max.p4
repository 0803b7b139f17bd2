// STF rule (v1model hash, as bmv2 implements it): hash(result, algo, base,
// data, max) writes base + (H % max) where H is the hash of the data, or
// just base when max is 0. base and max may be run-time values and max need
// not be a power of two. The sum is truncated to the result's width. With
// HashAlgorithm.identity, H is the data bits themselves.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> d;
    bit<16> base;
    bit<32> max;
    bit<16> res;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser HbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control HbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hash(hdr.h.res, HashAlgorithm.identity, hdr.h.base, { hdr.h.d }, hdr.h.max);
    }
}

control HbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(HbParser(), HbVerify(), HbIngress(), HbEgress(), HbCompute(),
         HbDeparser()) main;
