// Invalid: a two-parameter function-like macro invoked with one argument
// (code E0023).
#include <core.p4>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

control C(inout bit<8> x, in bit<8> y) {
    apply {
        x = MAX(y); // error: E0023
    }
}
