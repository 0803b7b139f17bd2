// Invalid: `@name` written as a structured annotation, in brackets; it takes
// its string in parentheses (code E0219).
#include <core.p4>

@name["x"] action a() {} // error: E0219
