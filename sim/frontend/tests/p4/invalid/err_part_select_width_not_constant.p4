// Invalid: the width of a part-select must be a compile-time constant
// (code E0205).
#include <core.p4>

control C(inout bit<16> word, in bit<8> b, in bit<4> w, out bit<8> r) {
    apply {
        r = word[b +: w]; // error: E0205
    }
}
