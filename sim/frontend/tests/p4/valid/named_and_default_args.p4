// Language test: named arguments (in any order) for functions, extern
// functions, actions and constructors, and parameters with default values
// that may be omitted.
#include <core.p4>

extern void trace(in bit<32> value, in bit<8> level = 8w1);
extern Window {
    Window(bit<32> size, bool sliding = false);
    void add(in bit<32> sample);
}

bit<32> scale(in bit<32> value, in bit<32> factor, in bit<32> offset) {
    return value * factor + offset;
}

control NamedArgs(inout bit<32> x, inout bit<8> y) {
    Window(32w64) fixed_window;
    Window(sliding = true, size = 32w16) sliding_window;

    action set_both(bit<32> xv, bit<8> yv) {
        x = xv;
        y = yv;
    }

    apply {
        x = scale(x, 2, 1);
        x = scale(offset = 5, value = x, factor = 3);
        trace(x);
        trace(level = 8w3, value = x);
        set_both(yv = y, xv = x);
        fixed_window.add(x);
        sliding_window.add(sample = x);
    }
}
