// Invalid: a control instantiated with a run-time value (E0205).
#include <core.p4>
control Inner(inout bit<8> x)(bit<8> step) { apply { x = x + step; } }
control Outer(inout bit<8> x) {
    Inner(x) inner; // error: E0205
    apply { inner.apply(x); }
}
