// Invalid: p4c's widest bit<W> has 2048 bits (E0211).
#include <core.p4>
header big_h { bit<4096> blob; } // error: E0211
