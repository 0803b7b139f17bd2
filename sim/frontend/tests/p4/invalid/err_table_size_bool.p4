// Invalid: a table's size must be a number (E0205).
#include <core.p4>
control C(inout bit<8> x) {
    action a() { }
    table t { key = { x : exact; } actions = { a; } size = true; } // error: E0205
    apply { t.apply(); }
}
