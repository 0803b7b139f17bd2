// Invalid: an #ifdef with no matching #endif before the end of the file
// (code E0021). The #ifdef is the last line, so its position and the end of
// the file coincide.
#include <core.p4>

#define FEATURE

control C(inout bit<8> x) {
    apply { x = 1; }
}

#ifdef FEATURE // error: E0021