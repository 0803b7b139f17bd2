// Invalid: a switch over a table result must use `.action_run`; `.hit` is a
// bool (code E0304).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { x = 1; }
    table t {
        key = { x : exact; }
        actions = { a; }
    }
    apply {
        switch (t.apply().hit) { // error: E0304
            default: { x = 2; }
        }
    }
}
