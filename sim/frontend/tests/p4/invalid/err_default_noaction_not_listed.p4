// Invalid: NoAction exists in core.p4 but is not in this table's actions
// list, so it cannot be the default action (code E0401).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { x = 1; }
    table t {
        key = { x : exact; }
        actions = { a; }
        const default_action = NoAction(); // error: E0401
    }
    apply { t.apply(); }
}
