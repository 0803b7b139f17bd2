// Invalid: default_action must supply every action-data argument; `v` is
// missing (code E0403).
#include <core.p4>

control C(inout bit<8> x) {
    action set(bit<8> v) {
        x = v;
    }
    table t {
        key = { x : exact; }
        actions = { set; }
        default_action = set(); // error: E0403
    }
    apply { t.apply(); }
}
