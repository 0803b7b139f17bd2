// Invalid: enum members live in the enum's namespace, not the top level, so
// a bare member name is undeclared (code E0100).
#include <core.p4>

enum Color { Red, Green }

control C(inout bool same, in Color c) {
    apply {
        same = c == Red; // error: E0100
    }
}
