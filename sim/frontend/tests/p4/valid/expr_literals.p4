// Language test: integer literal forms — decimal, hex, octal, binary and
// explicit-decimal prefixes (upper and lower case), width-annotated unsigned
// `w` and signed `s` literals, `_` digit separators, negated signed
// literals, boolean and string literals.
#include <core.p4>

extern void show(string label);

const bit<32> A = 32w255;
const bit<32> B = 32w0d255;
const bit<32> C = 32w0xFF;
const bit<32> D = 32w0XfF;
const int<32> E = 32s0xFF;
const bit<8>  F = 8w0b10101010;
const bit<8>  G = 8w0b_1010_1010;
const bit<8>  H = 8w170;
const int<8>  I = 8s0x7F;
const bit<16> J = 16w0377;          // decimal 377: a leading zero is not octal
const bit<16> K = 16w0o377;         // octal: 255
const bit<16> L = 16w0O17;
const int     M = 1_000_000;
const int     N = 0xDEAD_BEEF;
const int     O = 0B1111;
const int     P = 0D99;
const int<8>  Q = -8s5;
const int<4>  R = -4s7;
const int<1>  S = -1;             // int<1> holds only 0 and -1
const bit<1>  T = 1w1;
const bool    U = true;
const bool    V = false;
const bit<64> W = 64w0xFFFF_FFFF_FFFF_FFFF;
const bit<128> X = 128w0x0123_4567_89AB_CDEF_0123_4567_89AB_CDEF;

control Literals(out bit<32> sum, out bool ok) {
    apply {
        show("simple string");
        show("string with \"escaped\" quotes");
        sum = A + B + C + D + (bit<32>)E + (bit<32>)F + (bit<32>)G + (bit<32>)H +
              (bit<32>)(bit<8>)I + (bit<32>)J + (bit<32>)K + (bit<32>)L + M;
        ok = U && !V && T == 1 && Q < 0 && R < 0 && S == -1 &&
             W[7:0] == 8w0xFF && X[3:0] == 4w0xF && N > O && P == 99;
    }
}
