// Invalid: a default value must be a compile-time constant (E0214).
#include <core.p4>
struct meta_t { bit<8> x; }
control C(inout meta_t m) {
    action set(in bit<8> y = m.x) { m.x = y + 1; } // error: E0214
    apply { set(); }
}
