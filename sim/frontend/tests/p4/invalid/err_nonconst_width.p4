// Invalid: a type width must be a compile-time known value (code E0205).
#include <core.p4>

control C(in bit<8> n, inout bit<8> x) {
    apply {
        bit<(n)> dynamic; // error: E0205
        x = n;
    }
}
