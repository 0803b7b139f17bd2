// Invalid: `&&` needs bool operands; bit<1> is not bool (code E0209).
#include <core.p4>

control C(in bit<1> a, in bool b, out bool r) {
    apply {
        r = b && a; // error: E0209
    }
}
