// Invalid: compile-time modulo by zero (code E0210).
#include <core.p4>

const int R = 17 % 0; // error: E0210
