// Invalid: an entry priority on a table matched only `exact` (code E0405).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action set(bit<8> v) { x = v; }
    table t {
        key = { k : exact; }
        actions = { set; }
        entries = {
            priority = 5 : 1 : set(1); // error: E0405
            2 : set(2);
        }
        default_action = set(0);
    }
    apply { t.apply(); }
}
