// Invalid: bool converts only to and from bit<1> (code E0208).
#include <core.p4>

control C(in bool flag, out bit<8> r) {
    apply {
        r = (bit<8>)flag; // error: E0208
    }
}
