// Invalid: a cast to a header stack takes only a list (E0208).
#include <core.p4>
header h_t { bit<8> f; }
control C(inout h_t[2] s) {
    apply { h_t[2] t = (h_t[2]) s; s = t; } // error: E0208
}
