// Invalid: the same structured annotation twice on one struct; a structured
// annotation's name must be unique on its declaration (code E0219).
#include <core.p4>

@foo[a = 1] @foo[b = 2] struct s_t { bit<8> f; } // error: E0219
