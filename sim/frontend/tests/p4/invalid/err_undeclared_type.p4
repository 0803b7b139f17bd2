// Invalid: the struct field uses a type that is never declared (code E0100).
#include <core.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4; // error: E0100
}
