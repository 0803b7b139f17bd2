// Invalid: a table key element without `:` before its match kind (code E0010).
#include <core.p4>

control C(inout bit<32> addr) {
    action a() { }
    table t {
        key = {
            addr exact; // error: E0010
        }
        actions = { a; }
    }
    apply { t.apply(); }
}
