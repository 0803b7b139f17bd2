// Invalid: field names within a struct must be distinct (code E0101).
#include <core.p4>

struct meta_t {
    bit<8>  port;
    bit<16> length;
    bit<8>  port; // error: E0101
}
