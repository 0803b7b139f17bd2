// Invalid: a value set of headers (code E0211).
#include <core.p4>

header tag_h { bit<16> v; }

parser P(packet_in pkt, out tag_h t) {
    value_set<tag_h>(4) known; // error: E0211
    state start {
        pkt.extract(t);
        transition select(t.v) {
            default: accept;
        }
    }
}
