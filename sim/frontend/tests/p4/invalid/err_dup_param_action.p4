// Invalid: an action with two parameters named `port` (code E0105).
#include <core.p4>

control Fwd(inout bit<9> egress) {
    action set_port(bit<9> port, bit<9> port) { // error: E0105
        egress = port;
    }
    table route {
        actions = { set_port; NoAction; }
        default_action = NoAction();
    }
    apply { route.apply(); }
}
