// Invalid: an `out` argument must be an l-value, not a literal (code E0204).
#include <core.p4>

void fill(out bit<8> dest) {
    dest = 1;
}

control C(inout bit<8> x) {
    apply {
        fill(x);
        fill(8w3); // error: E0204
    }
}
