// Invalid: the condition of `?:` must be bool (code E0209).
#include <core.p4>

control C(in bit<1> sel, in bit<8> a, in bit<8> b, out bit<8> r) {
    apply {
        r = sel ? a : b; // error: E0209
    }
}
