// Invalid: P4 requires declaration before use; the constant is declared
// after the control that uses it (code E0100).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = DEFAULT_TTL; // error: E0100
    }
}

const bit<8> DEFAULT_TTL = 64;
