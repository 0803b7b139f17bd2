// Invalid: push_front and pop_front are header stack operations; an array
// of `bit<8>` has no such method (code E0104).
#include <core.p4>

control C(inout bit<8> v) {
    bit<8>[4] a;
    apply {
        a[0] = v;
        a.push_front(1); // error: E0104
    }
}
