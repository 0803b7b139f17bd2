// Invalid: `@name` given an integer instead of a string literal (code E0219).
#include <core.p4>

@name(1) action a() {} // error: E0219
