// Invalid: an out parameter cannot have a default value (E0214).
#include <core.p4>
extern void fill(out bit<8> value = 1); // error: E0214
