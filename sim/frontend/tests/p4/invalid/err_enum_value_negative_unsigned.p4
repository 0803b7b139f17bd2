// Invalid: -1 is out of bounds of an unsigned underlying type (code E0200);
// p4c does not wrap a serializable enum member's value.
#include <core.p4>

enum bit<4> Level {
    Low  = 0,
    None = -1 // error: E0200
}
