// Invalid: an inout parameter cannot have a default value (E0214).
#include <core.p4>
extern void bump(inout bit<8> value = 0); // error: E0214
