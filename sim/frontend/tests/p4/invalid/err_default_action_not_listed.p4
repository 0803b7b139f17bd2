// Invalid: the default action must be one of the table's actions
// (code E0401).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { x = 1; }
    action b() { x = 2; }
    table t {
        key = { x : exact; }
        actions = { a; }
        default_action = b(); // error: E0401
    }
    apply { t.apply(); }
}
