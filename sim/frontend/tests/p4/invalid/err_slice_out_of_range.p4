// Invalid: bit 8 does not exist in a bit<8> value (code E0207).
#include <core.p4>

control C(in bit<8> x, out bit<9> r) {
    apply {
        r = x[8:0]; // error: E0207
    }
}
