// Invalid: entries in a table without a key (code E0404).
#include <core.p4>

control C(inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        actions = { set; }
        const entries = { _ : set(1); } // error: E0404
        default_action = set(0);
    }
    apply { t.apply(); }
}
