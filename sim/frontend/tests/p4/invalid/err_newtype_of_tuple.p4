// Invalid: `type` over a tuple (code E0211).
#include <core.p4>

type tuple<bit<8>, bit<8>> Both_t; // error: E0211
