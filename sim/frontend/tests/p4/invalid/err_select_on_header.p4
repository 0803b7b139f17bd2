// Invalid: a select key is bits, integers, bool, enums or error, or lists of
// them; a whole header is none of these (code E0200).
#include <core.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
parser P(packet_in pkt, out hdrs_t h) {
    state start {
        pkt.extract(h.eth);
        transition select(h.eth.etype, h.eth) { // error: E0200
            default: accept;
        }
    }
}
