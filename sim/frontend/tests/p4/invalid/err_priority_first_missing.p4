// Invalid: later entries have priorities but the first has none (code E0405).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        key = { k : ternary; }
        actions = { set; }
        entries = {
            0x10 &&& 0xf0 : set(1); // error: E0405
            priority = 7 : 0x01 &&& 0x0f : set(2);
        }
        default_action = set(0);
    }
    apply { t.apply(); }
}
