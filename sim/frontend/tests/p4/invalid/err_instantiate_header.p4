// Invalid: a header type has no constructor and cannot be instantiated
// (code E0103).
#include <core.p4>

header h_t { bit<8> f; }

control C(inout bit<8> x) {
    h_t() not_an_instance; // error: E0103
    apply { }
}
