// Invalid: push_front's count must be a compile-time known value
// (code E0205).
#include <core.p4>

header h_t { bit<8> f; }

struct s_t { h_t[4] stack; }

control C(inout s_t s, in bit<32> n) {
    apply {
        s.stack.push_front(n); // error: E0205
    }
}
