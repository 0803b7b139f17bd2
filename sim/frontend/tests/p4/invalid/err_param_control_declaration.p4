// Invalid: a parameter cannot have the type of a control declaration (with a
// body); it takes a control type (E0214).
#include <core.p4>
control Inner(inout bit<8> x) { apply { x = 1; } }
control Outer(inout bit<8> x)(Inner inner) { // error: E0214
    apply { inner.apply(x); }
}
