// Invalid: bool is not a bit<1>; there is no implicit conversion (code E0200).
#include <core.p4>

control C(inout bit<1> flag_bit, in bool flag) {
    apply {
        flag_bit = flag; // error: E0200
    }
}
