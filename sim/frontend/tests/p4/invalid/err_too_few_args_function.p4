// Invalid: the function takes two arguments but is called with one
// (code E0203).
#include <core.p4>

bit<8> add8(in bit<8> a, in bit<8> b) {
    return a + b;
}

control C(inout bit<8> x) {
    apply {
        x = add8(x); // error: E0203
    }
}
