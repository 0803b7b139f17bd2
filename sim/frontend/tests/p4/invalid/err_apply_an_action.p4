// Invalid: `apply` is called on an action, which is not applicable
// (code E0103).
#include <core.p4>

control C(inout bit<8> x) {
    action bump() {
        x = x + 1;
    }
    apply {
        bump.apply(); // error: E0103
    }
}
