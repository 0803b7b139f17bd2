// Invalid: setValid takes no arguments (code E0203).
#include <core.p4>

header h_t { bit<8> f; }

control C(inout h_t h) {
    apply {
        h.setValid(1); // error: E0203
    }
}
