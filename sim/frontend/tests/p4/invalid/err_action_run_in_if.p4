// Invalid: `action_run` outside a `switch` (code E0300).
#include <core.p4>

extern void observe<T>(in T value);

control C(inout bit<8> x) {
    action hit_it() { x = 1; }
    table t {
        actions = { hit_it; NoAction; }
        default_action = NoAction();
    }
    apply {
        observe(t.apply().action_run); // error: E0300
    }
}
