// Invalid: the divisor folds to zero (code E0210).
#include <core.p4>

const bit<8> STEP = 3;
control C(inout bit<8> x) {
    apply {
        x = x % (STEP - 3); // error: E0210
    }
}
