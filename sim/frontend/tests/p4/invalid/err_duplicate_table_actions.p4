// Invalid: the `actions` property is repeated (code E0402).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { }
    action b() { }
    table t {
        key = { x : exact; }
        actions = { a; }
        actions = { b; } // error: E0402
    }
    apply { t.apply(); }
}
