// Invalid: `type` over a struct; new types are over bit<W>, int<W>, bool or
// another new type only (code E0211).
#include <core.p4>

struct addr_pair_t { bit<32> src; bit<32> dst; }
type addr_pair_t Pair_t; // error: E0211
