// Invalid: a header stack's `next` may only be used in a parser (code E0300).
#include <core.p4>

header h_t { bit<8> f; }

struct s_t { h_t[3] stack; }

control C(inout s_t s) {
    apply {
        s.stack.next.f = 1; // error: E0300
    }
}
