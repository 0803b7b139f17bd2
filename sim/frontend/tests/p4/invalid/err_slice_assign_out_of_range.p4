// Invalid: slice target bits 19..12 are outside a bit<16> (code E0207).
#include <core.p4>

control C(inout bit<16> word, in bit<8> b) {
    apply {
        word[19:12] = b; // error: E0207
    }
}
