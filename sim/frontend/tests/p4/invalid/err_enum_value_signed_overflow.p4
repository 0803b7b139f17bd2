// Invalid: int<4> holds -8 ... 7, so 8 is out of bounds (code E0200).
#include <core.p4>

enum int<4> Offset {
    Back  = -8,
    Ahead = 8 // error: E0200
}
