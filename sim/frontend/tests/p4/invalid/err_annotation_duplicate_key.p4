// Invalid: a structured annotation repeating the key `k` (code E0219).
#include <core.p4>

@foo[k = 1, k = 2] struct s_t { bit<8> f; } // error: E0219
