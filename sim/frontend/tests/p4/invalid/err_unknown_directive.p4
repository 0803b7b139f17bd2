// Invalid: `#frobnicate` is not a preprocessor directive (code E0021).
#include <core.p4>

#frobnicate everything // error: E0021

control C(inout bit<8> x) {
    apply { }
}
