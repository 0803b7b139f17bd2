// Invalid: `@name` with an empty argument list; it takes exactly one string
// (code E0219).
#include <core.p4>

@name() action a() {} // error: E0219
