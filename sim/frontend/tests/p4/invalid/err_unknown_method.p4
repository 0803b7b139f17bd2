// Invalid: headers have `isValid`, not `isvalid` (code E0104).
#include <core.p4>

header h_t { bit<8> f; }

control C(inout h_t h, out bool ok) {
    apply {
        ok = h.isvalid(); // error: E0104
    }
}
