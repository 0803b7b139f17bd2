// Invalid: a `string` parameter with a direction (code E0214).
#include <core.p4>

extern void note(in string message); // error: E0214
