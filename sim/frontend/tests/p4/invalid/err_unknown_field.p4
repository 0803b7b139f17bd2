// Invalid: the header has no field `ttll` (code E0104).
#include <core.p4>

header ipv4_t {
    bit<8>  ttl;
    bit<8>  protocol;
    bit<32> dst;
}

control C(inout ipv4_t ip) {
    apply {
        ip.ttll = ip.ttl - 1; // error: E0104
    }
}
