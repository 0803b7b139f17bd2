// Invalid: a parser may not define two states with the same name (code E0101).
#include <core.p4>

header h_t { bit<8> f; }

parser P(packet_in pkt, out h_t h) {
    state start {
        transition parse_h;
    }
    state parse_h {
        pkt.extract(h);
        transition accept;
    }
    state parse_h { // error: E0101
        transition accept;
    }
}
