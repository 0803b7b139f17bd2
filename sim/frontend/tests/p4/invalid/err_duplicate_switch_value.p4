// Invalid: two switch labels with the same constant value (code E0303).
#include <core.p4>

control C(in bit<16> etype, out bit<8> code) {
    apply {
        switch (etype) {
            0x0800: { code = 1; }
            0x86DD: { code = 2; }
            16w2048: { code = 3; } // error: E0303
            default: { code = 0; }
        }
    }
}
