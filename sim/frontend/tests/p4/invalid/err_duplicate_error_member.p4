// Invalid: declaring the same `error` member twice (code E0101).
#include <core.p4>

error { BadChecksum }
error { BadChecksum } // error: E0101
