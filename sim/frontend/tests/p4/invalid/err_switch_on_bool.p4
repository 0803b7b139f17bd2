// Invalid: switch expressions may be bit<>, int<>, enum or error values or
// an action_run, not bool (code E0304).
#include <core.p4>

control C(in bool flag, out bit<8> code) {
    apply {
        switch (flag) { // error: E0304
            true: { code = 1; }
            false: { code = 0; }
        }
    }
}
