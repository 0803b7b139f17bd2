// Invalid: two actions with the same name in one control (code E0101).
#include <core.p4>

control C(inout bit<8> x) {
    action set_value(bit<8> v) {
        x = v;
    }
    action set_value(bit<8> v) { // error: E0101
        x = v + 1;
    }
    apply { }
}
