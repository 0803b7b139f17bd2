// Invalid: `$` cannot start any P4 token (code E0001).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = $5; // error: E0001
    }
}
