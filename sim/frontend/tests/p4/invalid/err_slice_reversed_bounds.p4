// Invalid: a slice needs high >= low (code E0207).
#include <core.p4>

control C(in bit<16> x, out bit<8> r) {
    apply {
        bit<8> a = x[7:0];
        r = a;
        bit<2> b = x[3:4]; // error: E0207
    }
}
