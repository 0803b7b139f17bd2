// Invalid: two different header types are not assignable to each other even
// with identical fields (code E0200).
#include <core.p4>

header a_t { bit<8> f; }
header b_t { bit<8> f; }

control C(inout a_t a, in b_t b) {
    apply {
        a = b; // error: E0200
    }
}
