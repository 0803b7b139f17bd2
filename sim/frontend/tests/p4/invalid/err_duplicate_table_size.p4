// Invalid: the `size` property is repeated (code E0402).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { }
    table t {
        key = { x : exact; }
        actions = { a; }
        size = 64;
        size = 128; // error: E0402
    }
    apply { t.apply(); }
}
