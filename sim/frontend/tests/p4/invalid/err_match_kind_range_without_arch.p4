// Invalid: `range` is declared by architectures such as v1model, not by
// core.p4, and this program includes only core.p4 (code E0400).
#include <core.p4>

control C(inout bit<16> port) {
    action a() { }
    table t {
        key = {
            port : range; // error: E0400
        }
        actions = { a; }
    }
    apply { t.apply(); }
}
