// Invalid: a structured annotation value computed from a bit<16> constant
// (code E0217).
#include <core.p4>

const bit<16> BASE = 100;
@range[lo = BASE + 1] // error: E0217
struct s_t { bit<8> f; }
