// Invalid: ordering comparisons are not defined on bool (code E0202).
#include <core.p4>

control C(in bool a, in bool b, out bool r) {
    apply {
        r = a < b; // error: E0202
    }
}
