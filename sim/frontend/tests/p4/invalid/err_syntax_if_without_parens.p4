// Invalid: the condition of `if` must be parenthesised (code E0010).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        if x == 1 { // error: E0010
            x = 2;
        }
    }
}
