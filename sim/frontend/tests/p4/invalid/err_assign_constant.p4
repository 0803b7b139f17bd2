// Invalid: a constant cannot be assigned (code E0204).
#include <core.p4>

const bit<8> MAX_HOPS = 16;

control C(inout bit<8> x) {
    apply {
        MAX_HOPS = x; // error: E0204
    }
}
