// Invalid: `transition` must be followed by a state name or select (code E0010).
#include <core.p4>

header h_t { bit<8> f; }

parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        transition ; // error: E0010
    }
}
