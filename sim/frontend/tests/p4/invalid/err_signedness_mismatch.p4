// Invalid: binary operators do not mix signed and unsigned operands
// (code E0201).
#include <core.p4>

control C(in bit<8> x, in int<8> z, out bit<8> r) {
    apply {
        if (x < z) { // error: E0201
            r = x;
        }
    }
}
