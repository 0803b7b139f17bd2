// Invalid: entries in a table whose key is empty, which is no key
// (code E0404).
#include <core.p4>

control C(inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        key = { }
        actions = { set; }
        entries = { _ : set(2); } // error: E0404
        default_action = set(0);
    }
    apply { t.apply(); }
}
