// Invalid: assigning a bit<16> value to a bit<8> variable needs a cast
// (code E0200).
#include <core.p4>

control C(inout bit<8> small, in bit<16> big) {
    apply {
        small = big; // error: E0200
    }
}
