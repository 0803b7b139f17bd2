// Invalid: `verify` may only be called from a parser (code E0300).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        verify(x != 0, error.NoMatch); // error: E0300
    }
}
