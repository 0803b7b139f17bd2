// Invalid: `lastIndex` of a header stack outside a parser (code E0300).
#include <core.p4>

header label_h { bit<32> v; }
struct hdrs_t { label_h[4] labels; }

control C(inout hdrs_t h, out bit<32> top) {
    apply {
        top = h.labels.lastIndex; // error: E0300
    }
}
