// Invalid: a header field is not a method (code E0212).
#include <core.p4>

header h_t {
    bit<16> etype;
}

control C(inout h_t h, out bit<16> r) {
    apply {
        r = h.etype(); // error: E0212
    }
}
