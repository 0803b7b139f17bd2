// Invalid: an entry uses an action marked @defaultonly (code E0401).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action set() { x = 1; }
    table t {
        key = { k : exact; }
        actions = { @defaultonly set; NoAction; }
        const entries = {
            1 : set(); // error: E0401
        }
    }
    apply { t.apply(); }
}
