// Invalid: a parser state with the name of a parser local (code E0101).
#include <core.p4>

parser P(packet_in pkt) {
    bit<8> next_hop;
    state start { transition next_hop; }
    state next_hop { transition accept; } // error: E0101
}
