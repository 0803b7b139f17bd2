// Language test: bitwise & | ^ ~ on unsigned and signed values, logical
// shifts on bit<W>, arithmetic shifts on int<W>, shift amounts given as
// unsigned run-time values or non-negative constants, and operator precedence.
#include <core.p4>

control Bitwise(inout bit<32> a, inout bit<32> b, inout int<16> s,
                in bit<8> amount) {
    apply {
        a = a & b;
        a = a | 32w0xF0F0_F0F0;
        a = a ^ b;
        a = ~a;
        b = (a & 0xFF) | (b & ~32w0xFF);

        a = a << 4;
        a = a >> amount;            // run-time shift amount of type bit<8>
        b = b << amount;
        b = b >> 33;                // shifting by >= width yields 0
        s = s >> 2;                 // arithmetic shift keeps the sign
        s = s << amount;
        s = s & 16s0x0FFF;
        s = ~s ^ -16s1;

        // & binds tighter than ==, and == tighter than &&.
        bool ok = a & 1 == 1 && b | 2 != 0;
        if (ok) {
            a = a + b << 1;         // + binds tighter than <<
        }
    }
}
