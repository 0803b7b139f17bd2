// Invalid: headers cannot be nested inside headers (code E0211).
#include <core.p4>

header inner_t {
    bit<8> a;
}

header outer_t {
    bit<8>  b;
    inner_t nested; // error: E0211
}
