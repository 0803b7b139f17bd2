// STF rule: concatenation wider than 64 bits is exact: bit<48> ++ bit<32>
// is a bit<80> with the first operand in the high bits; a slice of it can
// straddle the 64-bit boundary; >> keeps the bit<80> width (zeros come in
// from the left); a three-way concatenation gives bit<88>; + carries
// across bit 64 and wraps modulo 2^80.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<48> mac;
    bit<32> ip;
}

header res_t {
    bit<80> w80;    // mac ++ ip
    bit<64> s64;    // w80[71:8]
    bit<80> sh;     // w80 >> 40
    bit<88> w88;    // ip ++ mac ++ 8w0xab
    bit<80> inc;    // w80 + 1
}

struct headers_t {
    in_t  i;
    res_t res;
}

struct meta_t { }

parser CwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control CwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        bit<80> w = hdr.i.mac ++ hdr.i.ip;
        hdr.res.w80 = w;
        hdr.res.s64 = w[71:8];
        hdr.res.sh = w >> 40;
        hdr.res.w88 = hdr.i.ip ++ hdr.i.mac ++ 8w0xab;
        hdr.res.inc = w + 1;
    }
}

control CwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.res);
    }
}

V1Switch(CwParser(), CwVerify(), CwIngress(), CwEgress(), CwCompute(),
         CwDeparser()) main;
