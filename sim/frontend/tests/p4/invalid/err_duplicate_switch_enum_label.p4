// Invalid: the same enum member used twice as a switch label (code E0303).
#include <core.p4>

enum Mode { Idle, Busy }

control C(in Mode m, out bit<8> code) {
    apply {
        switch (m) {
            Mode.Idle: { code = 0; }
            Mode.Busy: { code = 1; }
            Mode.Idle: { code = 2; } // error: E0303
        }
    }
}
