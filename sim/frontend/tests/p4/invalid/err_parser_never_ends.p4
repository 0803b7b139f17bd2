// Invalid: a parser whose reachable states only go round in a loop
// (code E0305).
#include <core.p4>

header h_t { bit<8> f; }

parser Loop(packet_in pkt, out h_t h) { // error: E0305
    state start { pkt.extract(h); transition again; }
    state again { transition start; }
    state done { transition accept; }
}
