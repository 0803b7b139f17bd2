// Invalid: a signed literal needs a width of at least 1 (code E0004).
#include <core.p4>

const int<8> V = (int<8>)0s1; // error: E0004
