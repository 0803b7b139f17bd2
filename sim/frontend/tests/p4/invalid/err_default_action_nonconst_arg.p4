// Invalid: action data given in default_action must be compile-time known
// (code E0205).
#include <core.p4>

control C(inout bit<8> x, in bit<8> runtime_value) {
    action set(bit<8> v) {
        x = v;
    }
    table t {
        key = { x : exact; }
        actions = { set; }
        default_action = set(runtime_value); // error: E0205
    }
    apply { t.apply(); }
}
