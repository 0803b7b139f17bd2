// Warning: a local variable read before it is assigned on every path
// (code W0004).
#include <core.p4>

control C(in bool big, out bit<8> r) {
    apply {
        bit<8> size;
        if (big) {
            size = 64;
        }
        r = size; // warning: W0004
    }
}
