// Invalid: a structured annotation value that is a tuple (code E0217).
#include <core.p4>

@ports[1, {2, 3}] // error: E0217
struct s_t { bit<8> f; }
