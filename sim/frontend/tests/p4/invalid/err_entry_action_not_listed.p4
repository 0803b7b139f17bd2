// Invalid: a const entry uses an action missing from the actions list
// (code E0401).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { x = 1; }
    action b() { x = 2; }
    table t {
        key = { x : exact; }
        actions = { a; }
        const entries = {
            1 : a();
            2 : b(); // error: E0401
        }
    }
    apply { t.apply(); }
}
