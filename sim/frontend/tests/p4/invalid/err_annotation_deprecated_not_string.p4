// Invalid: `@deprecated` given an integer instead of a string literal
// (code E0219).
#include <core.p4>

@deprecated(1) extern void g(); // error: E0219
