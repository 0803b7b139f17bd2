// Invalid: a parser constructor parameter named like an apply parameter
// (code E0105): the two lists share one namespace.
#include <core.p4>

header h_t { bit<8> f; }

parser TagParser(packet_in pkt, out h_t depth)(bit<8> depth) { // error: E0105
    state start { pkt.extract(depth); transition accept; }
}
