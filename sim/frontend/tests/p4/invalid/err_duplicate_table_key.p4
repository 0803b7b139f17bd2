// Invalid: a table property may be given only once; `key` appears twice
// (code E0402).
#include <core.p4>

control C(inout bit<8> x, inout bit<8> y) {
    action a() { }
    table t {
        key = { x : exact; }
        key = { y : exact; } // error: E0402
        actions = { a; }
    }
    apply { t.apply(); }
}
