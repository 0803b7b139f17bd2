// Invalid: `transition` is only allowed at the end of a parser state, not in
// a control (code E0300).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = x + 1;
        transition accept; // error: E0300
    }
}
