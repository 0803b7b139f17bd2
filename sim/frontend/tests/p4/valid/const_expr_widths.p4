// Language test: widths and sizes computed from compile-time constants —
// `bit<(W * 2)>`, `int<(W + 4)>`, `varbit<(W * 8)>`, header stack sizes and
// slice bounds given by constant expressions.
#include <core.p4>

const int W = 4;
const int STACK_DEPTH = W - 1;
const bit<32> BYTE_BITS = 8;

typedef bit<(W * 2)> byte_t;
typedef int<(W + 4)> sbyte_t;

header sized_h {
    bit<(W * 4)>   wide;          // bit<16>
    byte_t         narrow;        // bit<8>
    varbit<(W * 8)> tail;         // varbit<32>
}

header unit_h {
    bit<(BYTE_BITS)> v;           // bit<8>
}

struct sized_t {
    sized_h               s;
    unit_h[STACK_DEPTH]   units;  // 3 elements
}

control Widths(inout sized_t h, inout sbyte_t signed_byte) {
    apply {
        byte_t low = h.s.wide[(W * 2 - 1):0];
        h.s.narrow = low;
        h.units[STACK_DEPTH - 1].v = h.s.wide[(W * 4 - 1):(W * 2)];
        signed_byte = (sbyte_t)h.s.narrow;
        bit<(W)> nibble = h.s.narrow[W - 1:0];
        h.s.narrow = nibble ++ nibble;
    }
}
