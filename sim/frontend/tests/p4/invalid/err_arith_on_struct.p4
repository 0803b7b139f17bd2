// Invalid: arithmetic is not defined on struct values (code E0202).
#include <core.p4>

struct pair_t {
    bit<8> x;
    bit<8> y;
}

control C(in pair_t a, in pair_t b, out pair_t r) {
    apply {
        r = a + b; // error: E0202
    }
}
