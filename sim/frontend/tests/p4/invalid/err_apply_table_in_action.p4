// Invalid: tables cannot be applied inside an action body (code E0300).
#include <core.p4>

control C(inout bit<8> x) {
    action a() {
        x = 1;
    }
    table inner {
        key = { x : exact; }
        actions = { a; }
    }
    action chain() {
        inner.apply(); // error: E0300
    }
    table outer {
        key = { x : ternary; }
        actions = { chain; }
    }
    apply {
        outer.apply();
    }
}
