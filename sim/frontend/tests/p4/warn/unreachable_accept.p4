// Warning: no path from `start` reaches `accept`; the parser can only
// reject (code W0003).
#include <core.p4>

header h_t { bit<8> f; }

parser P(packet_in pkt, out h_t h) { // warning: W0003
    state start {
        pkt.extract(h);
        transition select(h.f) {
            0: start;
            default: reject;
        }
    }
    state finish { transition accept; }
}
