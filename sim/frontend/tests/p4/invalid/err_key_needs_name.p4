// Invalid: a table key that calls a function has no name p4c can derive
// from its expression (TableKeyNames); it needs an @name (code E0407).
#include <core.p4>

bit<8> twice(in bit<8> x) { return x + x; }

control C(in bit<8> k, inout bit<8> x) {
    action set() { x = 1; }
    table t {
        key = { twice(k) : exact; } // error: E0407
        actions = { set; NoAction; }
    }
    apply { t.apply(); }
}
