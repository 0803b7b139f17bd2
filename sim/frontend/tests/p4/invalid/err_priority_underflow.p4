// Invalid: with the largest priority winning and priority_delta 10, the
// priority after the entry of priority 5 would be negative (code E0405).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        key = { k : ternary; }
        actions = { set; }
        priority_delta = 10;
        entries = {
            priority = 20 : 0x10 &&& 0xf0 : set(1);
            priority = 5 : 0x01 &&& 0x0f : set(2); // error: E0405
        }
        default_action = set(0);
    }
    apply { t.apply(); }
}
