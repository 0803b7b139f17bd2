// Invalid: a header whose field is a stack of itself (code E0215).
#include <core.p4>

header opt_h {
    bit<8> kind;
    opt_h[2] nested; // error: E0215
}
