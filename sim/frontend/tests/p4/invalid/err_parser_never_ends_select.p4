// Invalid: every case of the select leads back into the parser (code E0305).
#include <core.p4>

header h_t { bit<8> f; }

parser Spin(packet_in pkt, out h_t h) { // error: E0305
    state start {
        pkt.extract(h);
        transition select(h.f) {
            0: start;
            default: more;
        }
    }
    state more { transition start; }
}
