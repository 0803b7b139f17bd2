// Invalid: `push_front` in a parser (code E0300).
#include <core.p4>

header tag_h { bit<8> v; }
struct hdrs_t { tag_h[2] tags; }

parser P(packet_in pkt, out hdrs_t h) {
    state start {
        h.tags.push_front(1); // error: E0300
        transition accept;
    }
}
