// Invalid: a call that would produce a control (code E0216).
#include <core.p4>

control Stage(inout bit<8> x);
extern Stage pick_stage(in bit<8> which);

control C(inout bit<8> x) {
    apply {
        pick_stage(x); // error: E0216
    }
}
