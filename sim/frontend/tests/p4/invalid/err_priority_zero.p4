// Invalid: priority 0 with the largest priority winning leaves nothing below
// it for the next priority p4c computes (code E0405).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        key = { k : lpm; k : ternary; }
        actions = { set; }
        entries = {
            priority = 0 : (0x10 &&& 0xf0, 1 &&& 1) : set(1); // error: E0405
        }
        default_action = set(0);
    }
    apply { t.apply(); }
}
