// Invalid: `@noWarn` given an integer instead of a string literal such as
// "unused" (code E0219).
#include <core.p4>

@noWarn(3) action a() {} // error: E0219
