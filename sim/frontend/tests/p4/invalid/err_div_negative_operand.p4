// Invalid: division by a negative constant, even of a bit<8> value
// (code E0202).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = x / -2; // error: E0202
    }
}
