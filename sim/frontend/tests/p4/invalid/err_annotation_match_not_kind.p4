// Invalid: `@match` on a value set key field given an integer instead of a
// match kind (code E0219).
#include <core.p4>

struct key_t {
    bit<8> proto;
    @match(1) bit<16> port; // error: E0219
}

parser P(packet_in pkt, out key_t k) {
    value_set<key_t>(4) ports;
    state start {
        transition select(k.proto, k.port) {
            ports: accept;
            default: reject;
        }
    }
}
