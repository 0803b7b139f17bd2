// Invalid: adding bit<8> to bit<16>; operands must have the same width
// (code E0201).
#include <core.p4>

control C(in bit<8> a, in bit<16> b, out bit<16> sum) {
    apply {
        sum = a + b; // error: E0201
    }
}
