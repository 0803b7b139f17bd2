// Invalid: `bit<8` is missing its closing `>` (code E0010).
#include <core.p4>

struct s_t {
    bit<8 field; // error: E0010
}
