// Invalid: a transition names a state that the parser does not declare
// (code E0302).
#include <core.p4>

header h_t { bit<8> f; }

parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        transition parse_ipv9; // error: E0302
    }
}
