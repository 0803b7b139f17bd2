// Invalid: the initializer of a `const` must be compile-time known
// (code E0205).
#include <core.p4>

control C(in bit<8> ttl, inout bit<8> x) {
    apply {
        const bit<8> START = ttl; // error: E0205
        x = START;
    }
}
