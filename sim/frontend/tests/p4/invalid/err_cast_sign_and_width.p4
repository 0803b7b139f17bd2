// Invalid: a single cast cannot change both signedness and width; bit<16>
// to int<8> needs two casts (code E0208).
#include <core.p4>

control C(in bit<16> y, out int<8> r) {
    apply {
        r = (int<8>)y; // error: E0208
    }
}
