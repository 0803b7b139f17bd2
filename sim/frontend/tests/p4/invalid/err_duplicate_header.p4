// Invalid: two top-level types with the same name (code E0101).
#include <core.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ethernet_t { // error: E0101
    bit<48> dst;
}
