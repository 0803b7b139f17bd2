// Invalid: a bit<8> variable is not callable (code E0212).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        bit<8> counter = 0;
        x = counter(1); // error: E0212
    }
}
