// Invalid: folding a constant shift past 2048 bits (E0202).
#include <core.p4>
const bit<8> K = 8w1 << 4096; // error: E0202
