// Invalid: an @optional parameter cannot also have a default value (E0214).
#include <core.p4>
extern void trace(@optional in bit<8> level = 1); // error: E0214
