// Invalid: a shift amount must fit in 32 bits (E0202).
#include <core.p4>
control C(inout bit<8> x) {
    apply { x = x << 4294967296; } // error: E0202
}
