// Invalid: an enum without an underlying type cannot be cast to any other
// type (code E0208).
#include <core.p4>

enum Mode { Fast, Slow }

control C(in Mode m, out bit<8> r) {
    apply {
        r = (bit<8>)m; // error: E0208
    }
}
