// Invalid: both branches of `?:` are `int` constants without a width
// (code E0200).
#include <core.p4>

const bool WIDE = true;
const bit<8> SIZE = WIDE ? 16 : 8; // error: E0200
