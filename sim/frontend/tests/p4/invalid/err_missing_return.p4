// Invalid: a function with a non-void return type whose body can end without
// returning a value (code E0301). The whole function is on the marked line.
#include <core.p4>

bit<8> no_return(in bit<8> v) { bit<8> doubled = v + v; } // error: E0301
