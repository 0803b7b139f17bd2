// Invalid: a width prefix `8w` with no value after it (code E0004).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = 8w; // error: E0004
    }
}
