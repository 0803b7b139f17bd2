// Invalid: a control type as a tuple element (code E0211).
#include <core.p4>

control Stage(inout bit<8> x);
control Run(inout bit<8> x) {
    apply {
        tuple<Stage> stages; // error: E0211
    }
}
