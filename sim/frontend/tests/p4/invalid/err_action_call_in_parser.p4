// Invalid: actions cannot be called from a parser state (code E0300).
#include <core.p4>

header h_t { bit<8> f; }

action clear(inout h_t h) {
    h.f = 0;
}

parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        clear(h); // error: E0300
        transition accept;
    }
}
