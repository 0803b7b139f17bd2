// Invalid: the enum has no member `Purple` (code E0104).
#include <core.p4>

enum Color { Red, Green, Blue }

control C(inout Color c) {
    apply {
        c = Color.Purple; // error: E0104
    }
}
