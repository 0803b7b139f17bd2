// Invalid: a table's entries come after its key (E0402).
#include <core.p4>
control C(inout bit<8> x) {
    action a() { }
    table t {
        actions = { a; }
        const entries = { 1 : a(); } // error: E0402
        key = { x : exact; }
    }
    apply { t.apply(); }
}
