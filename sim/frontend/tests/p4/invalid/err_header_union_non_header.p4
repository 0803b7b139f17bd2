// Invalid: every member of a header_union must be a header (code E0211).
#include <core.p4>

header a_t { bit<8> a; }

header_union u_t {
    a_t    first;
    bit<8> second; // error: E0211
}
