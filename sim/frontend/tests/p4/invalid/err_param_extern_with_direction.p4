// Invalid: an extern passed with a direction (code E0214).
#include <core.p4>

extern Gauge { Gauge(); void set(in bit<8> v); }

control Use(in Gauge g) { // error: E0214
    apply { g.set(1); }
}
