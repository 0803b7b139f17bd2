// Invalid: int<8> and bit<8> are different types; assignment needs a cast
// (code E0200).
#include <core.p4>

control C(inout bit<8> u, in int<8> s) {
    apply {
        u = s; // error: E0200
    }
}
