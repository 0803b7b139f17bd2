// Language test: arithmetic on bit<W>, int<W> and compile-time int values —
// unary minus/plus, + - *, saturating |+| and |-|, integer division and
// modulo on compile-time int constants, and implicit int-to-fixed casts.
#include <core.p4>

const int TEN = 10;
const int QUOTIENT = 100 / 7;       // 14
const int REMAINDER = 100 % 7;      // 2
const int SHIFTED = 1 << 10;        // int shift by a constant
const int NEGATIVE = -TEN + 3;

control Arithmetic(inout bit<8> u8, inout bit<16> u16, inout int<8> s8,
                   inout int<32> s32) {
    apply {
        u8 = u8 + 1;
        u8 = u8 - 8w2;
        u8 = u8 * 3;
        u8 = -u8;                   // two's complement negation of unsigned
        u8 = +u8;
        u8 = u8 |+| 8w200;          // saturates at 255
        u8 = u8 |-| 8w250;          // saturates at 0
        u16 = u16 + (bit<16>)QUOTIENT + (bit<16>)REMAINDER;
        u16 = u16 * u16 - u16;
        u16 = u16 + SHIFTED;

        s8 = s8 + 1;
        s8 = s8 - 8s100;
        s8 = -s8;
        s8 = s8 |+| 8s120;          // saturates at 127
        s8 = s8 |-| 8s120;          // saturates at -128
        s8 = s8 * -2;
        s32 = s32 + NEGATIVE;
        s32 = (s32 + 32s7) * (s32 - 32s7);
    }
}
