// Invalid: structs cannot be cast to bit-strings (code E0208).
#include <core.p4>

struct pair_t {
    bit<8> a;
    bit<8> b;
}

control C(in pair_t p, out bit<16> r) {
    apply {
        r = (bit<16>)p; // error: E0208
    }
}
