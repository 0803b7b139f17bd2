// Invalid: directionless (action data) parameters may not be bound in the
// actions list; the control plane supplies them (code E0403).
#include <core.p4>

control C(inout bit<9> port) {
    action forward(bit<9> p) {
        port = p;
    }
    table t {
        key = { port : exact; }
        actions = {
            forward(9w1); // error: E0403
        }
    }
    apply { t.apply(); }
}
