// Invalid: calling a function that is not declared anywhere (code E0100).
#include <core.p4>

bit<8> double_it(in bit<8> v) {
    return v + v;
}

control C(inout bit<8> x) {
    apply {
        x = double_it(x);
        x = triple_it(x); // error: E0100
    }
}
