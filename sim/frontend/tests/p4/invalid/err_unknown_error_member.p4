// Invalid: `error.BadThing` was never declared in any error declaration
// (code E0104).
#include <core.p4>

header h_t { bit<8> f; }

parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        verify(h.f != 0, error.BadThing); // error: E0104
        transition accept;
    }
}
