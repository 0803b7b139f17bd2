// Invalid: an extern as a tuple element (code E0211).
#include <core.p4>

extern Meter { Meter(); void mark(out bit<2> color); }
typedef tuple<Meter, bit<8>> metered_t; // error: E0211
