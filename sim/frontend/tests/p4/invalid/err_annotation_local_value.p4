// Invalid: a structured annotation value that reads a header field through
// the control's `inout` parameter, not a compile-time constant (code E0217).
#include <core.p4>

header h_t { bit<8> a; }
struct headers_t { h_t h; }

control C(inout headers_t hdr) {
    @my[k = hdr.h.a] action a() {} // error: E0217
    apply { a(); }
}
