// Invalid: two variables with the same name in the same block (code E0101).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        bit<8> tmp = x;
        bit<8> tmp = x + 1; // error: E0101
        x = tmp;
    }
}
