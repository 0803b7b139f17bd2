// Compile-time folding agrees with run-time evaluation: every expression
// is computed once on constants (folded by the front end) and once on the
// packet's fields, for bit and int arithmetic, saturation, shifts, casts
// through narrower and signed types, concatenation, slices and comparisons.
// Generated from a table of expressions; the expected bytes come from
// arbitrary-precision arithmetic reduced modulo 2^W (P4_16 8.5-8.9).
#include <core.p4>
#include <v1model.p4>

const bit<8> CA0 = 8w0x9c;
const bit<8> CB0 = 8w0x37;
const bit<8> CA1 = 8w0x05;
const bit<8> CB1 = 8w0xfb;
const bit<8> CA2 = 8w0x80;
const bit<8> CB2 = 8w0x80;
const bit<8> CA3 = 8w0x7f;
const bit<8> CB3 = 8w0x01;

header in_t { bit<8> idx; bit<8> a; bit<8> b; }
header out_t {
    bit<8> c0; bit<8> r0;
    bit<8> c1; bit<8> r1;
    bit<8> c2; bit<8> r2;
    bit<8> c3; bit<8> r3;
    bit<8> c4; bit<8> r4;
    bit<8> c5; bit<8> r5;
    bit<8> c6; bit<8> r6;
    bit<8> c7; bit<8> r7;
    bit<8> c8; bit<8> r8;
    bit<8> c9; bit<8> r9;
    bit<8> c10; bit<8> r10;
    bit<8> c11; bit<8> r11;
    bit<8> c12; bit<8> r12;
    bit<8> c13; bit<8> r13;
    bit<8> c14; bit<8> r14;
    bit<8> c15; bit<8> r15;
    bit<8> c16; bit<8> r16;
    bit<8> c17; bit<8> r17;
    bit<16> c18; bit<16> r18;
    bit<16> c19; bit<16> r19;
    bit<8> c20; bit<8> r20;
    bit<8> c21; bit<8> r21;
    bit<8> c22; bit<8> r22;
    bit<8> c23; bit<8> r23;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.r0 = hdr.i.a + hdr.i.b;
        hdr.o.r1 = hdr.i.a - hdr.i.b;
        hdr.o.r2 = hdr.i.a * hdr.i.b;
        hdr.o.r3 = hdr.i.a |+| hdr.i.b;
        hdr.o.r4 = hdr.i.a |-| hdr.i.b;
        hdr.o.r5 = hdr.i.a & hdr.i.b;
        hdr.o.r6 = hdr.i.a | hdr.i.b;
        hdr.o.r7 = hdr.i.a ^ hdr.i.b;
        hdr.o.r8 = ~hdr.i.a;
        hdr.o.r9 = hdr.i.a << 3;
        hdr.o.r10 = hdr.i.a >> 3;
        hdr.o.r11 = -hdr.i.a;
        hdr.o.r12 = (bit<8>)((int<8>)hdr.i.a >> 2);
        hdr.o.r13 = (bit<8>)((int<8>)hdr.i.a |+| (int<8>)hdr.i.b);
        hdr.o.r14 = (bit<8>)((int<8>)hdr.i.a |-| (int<8>)hdr.i.b);
        hdr.o.r15 = (bit<8>)((int<8>)hdr.i.a * (int<8>)hdr.i.b);
        hdr.o.r16 = (bit<8>)(bit<4>)hdr.i.a;
        hdr.o.r17 = (bit<8>)(int<8>)(int<4>)hdr.i.a[3:0];
        hdr.o.r18 = (bit<16>)(int<16>)(int<8>)hdr.i.a;
        hdr.o.r19 = hdr.i.a ++ hdr.i.b;
        hdr.o.r20 = (bit<8>)((int<4>)hdr.i.a[3:0] ++ hdr.i.b[3:0]);
        hdr.o.r21 = hdr.i.a[6:3] ++ hdr.i.b[1:0] ++ hdr.i.a[1:0];
        hdr.o.r22 = (hdr.i.a < hdr.i.b ? 8w1 : 8w0) | ((int<8>)hdr.i.a < (int<8>)hdr.i.b ? 8w2 : 8w0) | (hdr.i.a == hdr.i.b ? 8w4 : 8w0);
        hdr.o.r23 = (bit<1>)(hdr.i.a > hdr.i.b) ++ 7w0;
        if (hdr.i.idx == 0) {
            hdr.o.c0 = CA0 + CB0;
            hdr.o.c1 = CA0 - CB0;
            hdr.o.c2 = CA0 * CB0;
            hdr.o.c3 = CA0 |+| CB0;
            hdr.o.c4 = CA0 |-| CB0;
            hdr.o.c5 = CA0 & CB0;
            hdr.o.c6 = CA0 | CB0;
            hdr.o.c7 = CA0 ^ CB0;
            hdr.o.c8 = ~CA0;
            hdr.o.c9 = CA0 << 3;
            hdr.o.c10 = CA0 >> 3;
            hdr.o.c11 = -CA0;
            hdr.o.c12 = (bit<8>)((int<8>)CA0 >> 2);
            hdr.o.c13 = (bit<8>)((int<8>)CA0 |+| (int<8>)CB0);
            hdr.o.c14 = (bit<8>)((int<8>)CA0 |-| (int<8>)CB0);
            hdr.o.c15 = (bit<8>)((int<8>)CA0 * (int<8>)CB0);
            hdr.o.c16 = (bit<8>)(bit<4>)CA0;
            hdr.o.c17 = (bit<8>)(int<8>)(int<4>)CA0[3:0];
            hdr.o.c18 = (bit<16>)(int<16>)(int<8>)CA0;
            hdr.o.c19 = CA0 ++ CB0;
            hdr.o.c20 = (bit<8>)((int<4>)CA0[3:0] ++ CB0[3:0]);
            hdr.o.c21 = CA0[6:3] ++ CB0[1:0] ++ CA0[1:0];
            hdr.o.c22 = (CA0 < CB0 ? 8w1 : 8w0) | ((int<8>)CA0 < (int<8>)CB0 ? 8w2 : 8w0) | (CA0 == CB0 ? 8w4 : 8w0);
            hdr.o.c23 = (bit<1>)(CA0 > CB0) ++ 7w0;
        }
        else if (hdr.i.idx == 1) {
            hdr.o.c0 = CA1 + CB1;
            hdr.o.c1 = CA1 - CB1;
            hdr.o.c2 = CA1 * CB1;
            hdr.o.c3 = CA1 |+| CB1;
            hdr.o.c4 = CA1 |-| CB1;
            hdr.o.c5 = CA1 & CB1;
            hdr.o.c6 = CA1 | CB1;
            hdr.o.c7 = CA1 ^ CB1;
            hdr.o.c8 = ~CA1;
            hdr.o.c9 = CA1 << 3;
            hdr.o.c10 = CA1 >> 3;
            hdr.o.c11 = -CA1;
            hdr.o.c12 = (bit<8>)((int<8>)CA1 >> 2);
            hdr.o.c13 = (bit<8>)((int<8>)CA1 |+| (int<8>)CB1);
            hdr.o.c14 = (bit<8>)((int<8>)CA1 |-| (int<8>)CB1);
            hdr.o.c15 = (bit<8>)((int<8>)CA1 * (int<8>)CB1);
            hdr.o.c16 = (bit<8>)(bit<4>)CA1;
            hdr.o.c17 = (bit<8>)(int<8>)(int<4>)CA1[3:0];
            hdr.o.c18 = (bit<16>)(int<16>)(int<8>)CA1;
            hdr.o.c19 = CA1 ++ CB1;
            hdr.o.c20 = (bit<8>)((int<4>)CA1[3:0] ++ CB1[3:0]);
            hdr.o.c21 = CA1[6:3] ++ CB1[1:0] ++ CA1[1:0];
            hdr.o.c22 = (CA1 < CB1 ? 8w1 : 8w0) | ((int<8>)CA1 < (int<8>)CB1 ? 8w2 : 8w0) | (CA1 == CB1 ? 8w4 : 8w0);
            hdr.o.c23 = (bit<1>)(CA1 > CB1) ++ 7w0;
        }
        else if (hdr.i.idx == 2) {
            hdr.o.c0 = CA2 + CB2;
            hdr.o.c1 = CA2 - CB2;
            hdr.o.c2 = CA2 * CB2;
            hdr.o.c3 = CA2 |+| CB2;
            hdr.o.c4 = CA2 |-| CB2;
            hdr.o.c5 = CA2 & CB2;
            hdr.o.c6 = CA2 | CB2;
            hdr.o.c7 = CA2 ^ CB2;
            hdr.o.c8 = ~CA2;
            hdr.o.c9 = CA2 << 3;
            hdr.o.c10 = CA2 >> 3;
            hdr.o.c11 = -CA2;
            hdr.o.c12 = (bit<8>)((int<8>)CA2 >> 2);
            hdr.o.c13 = (bit<8>)((int<8>)CA2 |+| (int<8>)CB2);
            hdr.o.c14 = (bit<8>)((int<8>)CA2 |-| (int<8>)CB2);
            hdr.o.c15 = (bit<8>)((int<8>)CA2 * (int<8>)CB2);
            hdr.o.c16 = (bit<8>)(bit<4>)CA2;
            hdr.o.c17 = (bit<8>)(int<8>)(int<4>)CA2[3:0];
            hdr.o.c18 = (bit<16>)(int<16>)(int<8>)CA2;
            hdr.o.c19 = CA2 ++ CB2;
            hdr.o.c20 = (bit<8>)((int<4>)CA2[3:0] ++ CB2[3:0]);
            hdr.o.c21 = CA2[6:3] ++ CB2[1:0] ++ CA2[1:0];
            hdr.o.c22 = (CA2 < CB2 ? 8w1 : 8w0) | ((int<8>)CA2 < (int<8>)CB2 ? 8w2 : 8w0) | (CA2 == CB2 ? 8w4 : 8w0);
            hdr.o.c23 = (bit<1>)(CA2 > CB2) ++ 7w0;
        }
        else if (hdr.i.idx == 3) {
            hdr.o.c0 = CA3 + CB3;
            hdr.o.c1 = CA3 - CB3;
            hdr.o.c2 = CA3 * CB3;
            hdr.o.c3 = CA3 |+| CB3;
            hdr.o.c4 = CA3 |-| CB3;
            hdr.o.c5 = CA3 & CB3;
            hdr.o.c6 = CA3 | CB3;
            hdr.o.c7 = CA3 ^ CB3;
            hdr.o.c8 = ~CA3;
            hdr.o.c9 = CA3 << 3;
            hdr.o.c10 = CA3 >> 3;
            hdr.o.c11 = -CA3;
            hdr.o.c12 = (bit<8>)((int<8>)CA3 >> 2);
            hdr.o.c13 = (bit<8>)((int<8>)CA3 |+| (int<8>)CB3);
            hdr.o.c14 = (bit<8>)((int<8>)CA3 |-| (int<8>)CB3);
            hdr.o.c15 = (bit<8>)((int<8>)CA3 * (int<8>)CB3);
            hdr.o.c16 = (bit<8>)(bit<4>)CA3;
            hdr.o.c17 = (bit<8>)(int<8>)(int<4>)CA3[3:0];
            hdr.o.c18 = (bit<16>)(int<16>)(int<8>)CA3;
            hdr.o.c19 = CA3 ++ CB3;
            hdr.o.c20 = (bit<8>)((int<4>)CA3[3:0] ++ CB3[3:0]);
            hdr.o.c21 = CA3[6:3] ++ CB3[1:0] ++ CA3[1:0];
            hdr.o.c22 = (CA3 < CB3 ? 8w1 : 8w0) | ((int<8>)CA3 < (int<8>)CB3 ? 8w2 : 8w0) | (CA3 == CB3 ? 8w4 : 8w0);
            hdr.o.c23 = (bit<1>)(CA3 > CB3) ++ 7w0;
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
