// Invalid: a directional action parameter must be bound in the actions list
// (code E0403).
#include <core.p4>

control C(inout bit<8> x, in bit<8> len) {
    action account(in bit<8> l, bit<8> code) {
        x = l + code;
    }
    table t {
        key = { x : exact; }
        actions = {
            account; // error: E0403
        }
    }
    apply { t.apply(); }
}
