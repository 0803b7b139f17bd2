// Invalid: `Z` is not a hexadecimal digit (code E0004).
#include <core.p4>

const bit<8> MASK = 8w0xZZ; // error: E0004
