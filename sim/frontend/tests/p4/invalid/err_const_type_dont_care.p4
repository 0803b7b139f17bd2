// Invalid: `_` in the type of a constant (code E0211).
#include <core.p4>

const tuple<bit<8>, _> PAIR = { 1, 2 }; // error: E0211
