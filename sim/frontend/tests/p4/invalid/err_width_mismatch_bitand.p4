// Invalid: bitwise and of bit<16> and bit<32> (code E0201).
#include <core.p4>

control C(in bit<16> mask, in bit<32> value, out bit<32> r) {
    apply {
        r = value & mask; // error: E0201
    }
}
