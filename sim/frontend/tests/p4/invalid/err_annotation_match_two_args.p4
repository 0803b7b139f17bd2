// Invalid: `@match` on a struct field given two match kinds; it takes
// exactly one (code E0219).
#include <core.p4>

struct key_t {
    @match(exact, lpm) bit<16> port; // error: E0219
}
