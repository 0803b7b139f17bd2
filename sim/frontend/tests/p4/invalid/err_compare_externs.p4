// Invalid: two extern instances compared with `==` (code E0202).
#include <core.p4>

extern Gauge { Gauge(); void set(in bit<8> v); }

control C(out bool same) {
    Gauge() a;
    Gauge() b;
    apply {
        same = a == b; // error: E0202
    }
}
