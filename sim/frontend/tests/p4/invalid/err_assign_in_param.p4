// Invalid: `in` parameters are read-only (code E0204).
#include <core.p4>

control C(in bit<8> limit, inout bit<8> x) {
    apply {
        x = x + 1;
        limit = 0; // error: E0204
    }
}
