// Invalid: arbitrary-precision `int` has no size and cannot be a header
// field (code E0211).
#include <core.p4>

header h_t {
    bit<8> kind;
    int    amount; // error: E0211
}
