// Invalid: modulo of a negative `int` constant (code E0202).
#include <core.p4>

const int R = -9 % 4; // error: E0202
