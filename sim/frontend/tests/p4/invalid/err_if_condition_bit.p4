// Invalid: an `if` condition must be bool, not bit<8> (code E0209).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        if (x) { // error: E0209
            x = 0;
        }
    }
}
