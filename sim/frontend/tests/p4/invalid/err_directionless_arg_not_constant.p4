// Invalid: an extern method's directionless parameter takes a compile-time
// constant (E0205).
#include <core.p4>
extern Shaper {
    Shaper();
    void set_rate(bit<8> rate);
}
control C(inout bit<8> x) {
    Shaper() s;
    apply { s.set_rate(x); } // error: E0205
}
