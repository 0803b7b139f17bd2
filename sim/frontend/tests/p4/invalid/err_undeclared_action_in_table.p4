// Invalid: the actions list names an action that does not exist (code E0100).
#include <core.p4>

control C(inout bit<32> addr, inout bit<9> port) {
    action forward(bit<9> p) {
        port = p;
    }
    table route {
        key = { addr : lpm; }
        actions = {
            forward;
            drop_packet; // error: E0100
        }
    }
    apply { route.apply(); }
}
