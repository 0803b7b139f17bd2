// Invalid: slices apply to bit<>/int<> values, not bool (code E0207).
#include <core.p4>

control C(in bool flag, out bit<1> r) {
    apply {
        r = flag[0:0]; // error: E0207
    }
}
