// Invalid: a direct action call with more arguments than the action has
// parameters (code E0203).
#include <core.p4>

control C(inout bit<9> port) {
    action set_port(bit<9> p) {
        port = p;
    }
    apply {
        set_port(1, 2); // error: E0203
    }
}
