// Warning: an action's out parameter left unassigned on one path to its end
// (code W0004).
#include <core.p4>

control C(inout bit<8> v) {
    action classify(in bit<8> x, out bit<8> cls) { // warning: W0004
        if (x > 10) {
            return;
        }
        cls = 0;
    }
    apply { classify(v, v); }
}
