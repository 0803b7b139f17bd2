// Invalid: `/` and `%` are defined only on unsigned values (and non-negative
// `int` constants), not on `int<W>` (code E0202).
#include <core.p4>

control C(in int<16> a, in int<16> b, out int<16> q) {
    apply {
        q = a / b; // error: E0202
    }
}
