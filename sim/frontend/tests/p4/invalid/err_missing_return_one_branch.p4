// Invalid: only one branch returns, so the function can reach its end
// without a value (code E0301). The whole function is on the marked line.
#include <core.p4>

bit<16> pick(in bool first, in bit<16> a, in bit<16> b) { if (first) { return a; } else { bit<16> copy = b; } } // error: E0301
