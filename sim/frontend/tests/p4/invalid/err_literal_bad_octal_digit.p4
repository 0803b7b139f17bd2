// Invalid: `9` is not an octal digit (code E0004).
#include <core.p4>

const bit<16> MODE = 16w0o791; // error: E0004
