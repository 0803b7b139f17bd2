// Invalid: a block comment that is never closed (code E0002). It is the
// last line of the file, so where it starts and where the file ends coincide.
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = x + 1;
    }
}

/* this comment never ends // error: E0002