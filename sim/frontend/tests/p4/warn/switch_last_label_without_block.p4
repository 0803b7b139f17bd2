// Warning: the last label of a switch has no block (issue 17, family 7):
// it falls through to the end of the switch and does nothing. p4c warns
// ("SwitchCase: fallthrough with no statement") and accepts it; so does
// Janus, with W0007, for switches on values and on `action_run`.
// Written for Janus from p4c's behaviour (p4lang/p4c issue 3619).
#include <core.p4>

control C(inout bit<8> x) {
    action a1() { x = 1; }
    action a2() { x = 2; }
    table t { key = { x : exact; } actions = { a1; a2; } }
    apply {
        switch (x) {
            1: { x = 3; }
            2: // warning: W0007
        }
        switch (t.apply().action_run) {
            a1: { x = 4; }
            a2:
        }
    }
}
