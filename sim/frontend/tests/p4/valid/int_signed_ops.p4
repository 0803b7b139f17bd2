// Language test: signed fixed-width integers — literals, negation,
// comparison, arithmetic shifts, saturating arithmetic, sign-extending and
// truncating casts, and mixing with compile-time int constants.
#include <core.p4>

const int<16> MIN16 = -16s32767 - 1;
const int<16> MAX16 = 16s32767;

control Signed(inout int<16> a, inout int<16> b, inout int<32> wide, out bool neg) {
    apply {
        a = a + b;
        a = a - -16s1;
        b = -b;
        neg = a < 0 || b <= -1;
        a = a >> 3;                     // arithmetic shift
        b = b << 2;
        a = a |+| MAX16;
        b = b |-| MAX16;
        wide = (int<32>)a * (int<32>)b;
        a = (int<16>)wide;              // truncation
        if (a == MIN16) {
            a = MAX16;
        }
        bit<16> raw = (bit<16>)b;       // reinterpret the bits
        b = (int<16>)(raw >> 1);
        int<8> small = (int<8>)(int<16>)(-16s100);
        wide = wide + (int<32>)small;
    }
}
