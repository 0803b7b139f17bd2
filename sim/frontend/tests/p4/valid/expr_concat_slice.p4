// Language test: bit-string concatenation `++` (mixing widths and
// signedness), slices `e[h:l]` on bit<> and int<> values, slices as
// assignment targets, and slice bounds computed from constants.
#include <core.p4>

const int HI = 15;
const int LO = 8;

control ConcatSlice(inout bit<32> word, inout bit<8> byte_val, inout int<16> signed_val) {
    apply {
        bit<16> high = word[31:16];
        bit<16> low = word[15:0];
        word = low ++ high;                     // swap halves
        bit<40> wide = byte_val ++ word;         // widths add up
        byte_val = wide[39:32];

        bit<8> from_signed = signed_val[HI:LO];   // a slice of int<> is unsigned
        int<24> mixed = signed_val ++ byte_val;    // result takes the left signedness

        word[7:0] = byte_val;                   // slice as an l-value
        word[31:24] = from_signed;
        word[HI:LO] = 8w0;
        word[23:16] = mixed[7:0];

        bit<1> top = word[31:31];
        bit<4> nibble = word[3:0] ^ 4w0xF;
        word = (bit<32>)(top ++ nibble ++ 27w0);
    }
}
