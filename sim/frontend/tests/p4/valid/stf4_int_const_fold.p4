// STF rule (P4_16 spec 8.6 arbitrary-precision int, 8.9 casts): `int`
// constants are exact at any size (beyond 64 bits); `a >> b` on int is
// floor(a / 2^b), so negative values round toward minus infinity
// (-7 >> 1 = -4); a cast of an int to bit<W> keeps the low W bits of its
// two's complement; `/` and `%` on big positive ints are exact. Fixed-width
// constant expressions wrap (8s127 + 8s1 = -128; K + K on bit<8> 200).
#include <core.p4>
#include <v1model.p4>

const int BIG = 0x1_0000_0000_0000_00A5;   // 2^64 + 165
const int NEG = -300;
const int SH = (1 << 100) >> 96;            // 16
const bit<8> K = 200;

header in_t { bit<8> x; }
header r_t {
    bit<8>  a;   // (bit<8>)BIG
    bit<16> b;   // (bit<16>)NEG
    bit<8>  c;   // (bit<8>)SH
    bit<8>  d;   // K + K
    bit<8>  f;   // (bit<8>)(-1 >> 3)
    bit<8>  g;   // low bits of -(2^64) + 7
    int<8>  h;   // 8s127 + 8s1
    bit<8>  i;   // (bit<8>)(-7 >> 1)
    bit<8>  j;   // (bit<8>)(BIG % 7)
    bit<16> k;   // (bit<16>)(BIG / 3)
    bit<8>  m;   // x + (bit<8>)(BIG - 2^64)
}
struct headers_t {
    in_t i;
    r_t  r;
}
struct meta_t { }

parser IfParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control IfVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control IfIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.setValid();
        hdr.r.a = (bit<8>)BIG;
        hdr.r.b = (bit<16>)NEG;
        hdr.r.c = (bit<8>)SH;
        hdr.r.d = K + K;
        hdr.r.f = (bit<8>)(-1 >> 3);
        hdr.r.g = (bit<8>)(-(BIG - 0xA5) + 7);
        hdr.r.h = 8s127 + 8s1;
        hdr.r.i = (bit<8>)(-7 >> 1);
        hdr.r.j = (bit<8>)(BIG % 7);
        hdr.r.k = (bit<16>)(BIG / 3);
        hdr.r.m = hdr.i.x + (bit<8>)(BIG - (1 << 64));
        sm.egress_spec = 2;
    }
}

control IfEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control IfCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control IfDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.r);
    }
}

V1Switch(IfParser(), IfVerify(), IfIngress(), IfEgress(), IfCompute(),
         IfDeparser()) main;
