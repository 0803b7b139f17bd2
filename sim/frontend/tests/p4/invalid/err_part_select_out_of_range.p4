// Invalid: a part-select with a constant start must stay inside the
// value: bits 12..19 of a bit<16> (code E0207).
#include <core.p4>

control C(inout bit<16> word, in bit<8> b) {
    apply {
        word[12 +: 8] = b; // error: E0207
    }
}
