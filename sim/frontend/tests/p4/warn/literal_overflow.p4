// Warning: 256 does not fit in the 8 bits the literal declares; it is
// truncated (W0006, a warning as in p4c, not an error).
#include <core.p4>

const bit<8> TOO_BIG = 8w256; // warning: W0006
