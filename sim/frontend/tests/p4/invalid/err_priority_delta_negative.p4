// Invalid: priority_delta must be non-negative where p4c numbers the entries
// (E0405).
#include <core.p4>
control C(inout bit<8> x) {
    action a() { }
    table t {
        key = { x : ternary; }
        actions = { a; }
        priority_delta = -1; // error: E0405
        entries = { 1 &&& 0xff : a(); }
    }
    apply { t.apply(); }
}
