// Invalid: an action parameter of type `int` (code E0214).
#include <core.p4>

control C(inout bit<8> x) {
    action add(int k) { // error: E0214
        x = x + 1;
    }
    apply { add(1); }
}
