// Invalid: a control cannot be instantiated (and so not called) inside a
// parser (code E0300).
#include <core.p4>

header h_t { bit<8> f; }

control Fixup(inout h_t h) {
    apply {
        h.f = 0;
    }
}

parser P(packet_in pkt, out h_t h) {
    Fixup() fixup; // error: E0300
    state start {
        pkt.extract(h);
        transition accept;
    }
}
