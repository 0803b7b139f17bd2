// Invalid: bitwise operations are not defined on arbitrary-precision `int`
// (code E0202).
#include <core.p4>

const int ALL_ONES = ~1; // error: E0202
