// Invalid: a generic function compares values of its type parameter, and a
// call binds it to an extern type (code E0202).
#include <core.p4>

extern Gauge { Gauge(); void set(in bit<8> v); }

bool same<T>(in T a, in T b) { return a != b; }

control C(out bool r)(Gauge g) {
    apply {
        r = same(g, g); // error: E0202
    }
}
