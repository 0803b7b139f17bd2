// Invalid: bitwise complement `~` is not defined on bool (code E0202).
#include <core.p4>

control C(in bool a, out bool r) {
    apply {
        r = ~a; // error: E0202
    }
}
