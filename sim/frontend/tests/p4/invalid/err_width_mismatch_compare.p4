// Invalid: comparing bit<32> with bit<16> (code E0201).
#include <core.p4>

control C(in bit<32> addr, in bit<16> port, out bool same) {
    apply {
        same = addr == port; // error: E0201
    }
}
