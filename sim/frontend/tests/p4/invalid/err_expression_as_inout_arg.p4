// Invalid: an `inout` argument must be an l-value; `x + 1` is computed
// (code E0204).
#include <core.p4>

void bump(inout bit<8> v) {
    v = v + 1;
}

control C(inout bit<8> x) {
    apply {
        bump(x + 1); // error: E0204
    }
}
