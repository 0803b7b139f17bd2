// Invalid: lookahead's result type cannot be inferred from its (absent)
// arguments; it must be given, e.g. lookahead<bit<16>>() (code E0211).
#include <core.p4>

parser P(packet_in pkt, out bit<16> peek) {
    state start {
        peek = pkt.lookahead(); // error: E0211
        transition accept;
    }
}
