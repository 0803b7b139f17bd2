// Invalid: a local variable that hides a parameter of the enclosing action
// (code E0101); p4c refuses this shadowing, where others only warn.
#include <core.p4>

control C(inout bit<8> x) {
    action bump(bit<8> step) {
        bit<8> step = 1; // error: E0101
        x = x + step;
    }
    apply { bump(2); }
}
