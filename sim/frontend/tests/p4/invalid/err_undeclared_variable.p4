// Invalid: `y` is never declared (code E0100).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = y + 1; // error: E0100
    }
}
