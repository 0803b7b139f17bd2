// Invalid: the nested struct has no field `count` (code E0104).
#include <core.p4>

struct stats_t {
    bit<32> packets;
    bit<32> bytes;
}

struct meta_t {
    stats_t stats;
}

control C(inout meta_t m) {
    apply {
        m.stats.packets = m.stats.packets + 1;
        m.stats.count = 0; // error: E0104
    }
}
