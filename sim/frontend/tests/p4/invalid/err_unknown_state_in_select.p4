// Invalid: a select case targets an undeclared state (code E0302).
#include <core.p4>

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

parser P(packet_in pkt, out eth_t eth) {
    state start {
        pkt.extract(eth);
        transition select(eth.etype) {
            0x0800  : parse_ipv4; // error: E0302
            default : accept;
        }
    }
}
