// Invalid: a structured annotation value of type bit<8> (code E0217).
#include <core.p4>

@layout[width = 8w4] // error: E0217
header h_t { bit<8> f; }
