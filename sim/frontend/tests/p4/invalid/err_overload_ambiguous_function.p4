// Invalid: two extern functions with one parameter each; the call matches
// both (code E0106).
#include <core.p4>

extern void trace(in bit<8> value);
extern void trace(in bit<16> wide);

control C(in bit<8> x) {
    apply {
        trace(x); // error: E0106
    }
}
