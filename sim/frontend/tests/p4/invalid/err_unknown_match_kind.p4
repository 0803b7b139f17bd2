// Invalid: `fuzzy` is not a declared match kind (code E0400).
#include <core.p4>

control C(inout bit<32> addr) {
    action a() { }
    table t {
        key = {
            addr : fuzzy; // error: E0400
        }
        actions = { a; }
    }
    apply { t.apply(); }
}
