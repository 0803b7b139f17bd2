// Invalid: the same action appears twice as a switch label (code E0303).
#include <core.p4>

control C(inout bit<8> x) {
    action a() { x = 1; }
    action b() { x = 2; }
    table t {
        key = { x : exact; }
        actions = { a; b; }
    }
    apply {
        switch (t.apply().action_run) {
            a: { x = 10; }
            b: { x = 20; }
            a: { x = 30; } // error: E0303
        }
    }
}
