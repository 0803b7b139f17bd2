// Invalid: one annotation name used both unstructured, `@foo(1)`, and
// structured, `@foo[b = 2]`, on one struct (code E0219).
#include <core.p4>

@foo(1) @foo[b = 2] struct s_t { bit<8> f; } // error: E0219
