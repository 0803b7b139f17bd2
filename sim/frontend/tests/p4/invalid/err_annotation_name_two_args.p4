// Invalid: `@name` given two strings; it takes exactly one (code E0219).
#include <core.p4>

@name("a", "b") action a() {} // error: E0219
