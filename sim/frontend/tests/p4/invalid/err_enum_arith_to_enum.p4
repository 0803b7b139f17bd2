// Invalid: `E.e1 + 1` has type bit<8>, which does not convert implicitly back
// to the enum type (code E0200).
#include <core.p4>

enum bit<8> E {
    e1 = 0,
    e2 = 1
}

control C(inout E a) {
    apply {
        a = E.e1 + 1; // error: E0200
    }
}
