// Invalid: a typedef naming itself (code E0215).
#include <core.p4>

typedef addr_t addr_t; // error: E0215
