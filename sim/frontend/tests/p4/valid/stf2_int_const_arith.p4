// STF rule (P4_16 spec, arbitrary-precision int): compile-time int values
// have unbounded precision; `/` and `%` on positive ints truncate toward
// zero; a cast of an int to bit<W> keeps the low W bits of its two's
// complement (so a negative int gives 2^W - |v| mod 2^W); intermediate
// values beyond 64 bits (1 << 70) are exact. `/` and `%` on compile-time
// bit<8> values work modulo 2^8.
#include <core.p4>
#include <v1model.p4>

const int A = 1000;
const int B = 7;

header in_t {
    bit<8> x;
}

header res_t {
    bit<8>  q;      // A / B
    bit<8>  r;      // A % B
    bit<16> big;    // A * A / 3, low 16 bits
    bit<8>  mix;    // (A + 24) / 4 % 100
    bit<8>  neg;    // B - A, low 8 bits
    bit<8>  huge;   // (1 << 70) >> 66
    bit<8>  bq;     // 8w200 / 8w3
    bit<8>  br;     // 8w200 % 8w3
    bit<8>  rt;     // x + A / 100
}

struct headers_t {
    in_t  i;
    res_t res;
}

struct meta_t { }

parser IcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control IcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.q = (bit<8>)(A / B);
        hdr.res.r = (bit<8>)(A % B);
        hdr.res.big = (bit<16>)(A * A / 3);
        hdr.res.mix = (bit<8>)((A + 24) / 4 % 100);
        hdr.res.neg = (bit<8>)(B - A);
        hdr.res.huge = (bit<8>)((1 << 70) >> 66);
        hdr.res.bq = 8w200 / 8w3;
        hdr.res.br = 8w200 % 8w3;
        hdr.res.rt = hdr.i.x + A / 100;
    }
}

control IcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control IcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.res);
    }
}

V1Switch(IcParser(), IcVerify(), IcIngress(), IcEgress(), IcCompute(),
         IcDeparser()) main;
