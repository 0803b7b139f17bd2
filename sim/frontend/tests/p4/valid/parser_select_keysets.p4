// Language test: select expressions with singleton values, masks `&&&`,
// ranges `..`, the universal sets `default` and `_`, tuple keysets with
// mixed forms, bool and serializable-enum selectors, and constants as labels.
#include <core.p4>

enum bit<8> ip_proto_t { ICMP = 1, TCP = 6, UDP = 17 }

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_h {
    bit<4>     version;
    bit<4>     ihl;
    bit<8>     tos;
    bit<16>    len;
    bit<16>    id;
    bit<3>     flags;
    bit<13>    frag;
    bit<8>     ttl;
    ip_proto_t proto;
    bit<16>    csum;
    bit<32>    src;
    bit<32>    dst;
}

header l4_h {
    bit<16> sport;
    bit<16> dport;
}

struct parsed_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    l4_h       l4;
}

const bit<16> ETH_IPV4 = 0x0800;

parser Keysets(packet_in pkt, out parsed_t hdr)(bool strict) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETH_IPV4                : parse_ipv4;
            16w0x8100 &&& 16w0xEFFF : accept;        // 0x8100 and 0x9100
            0x0600 .. 0x07FF        : reject;
            default                 : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.proto) {
            (4, 5, ip_proto_t.TCP)   : parse_l4;
            (4, 5, ip_proto_t.UDP)   : parse_l4;
            (4, 6 .. 15, _)          : check_strict;
            (_, _, ip_proto_t.ICMP)  : accept;
            (4w4, _, _)              : accept;
            (_, _, _)                : reject;
        }
    }
    state check_strict {
        transition select(strict) {
            true  : reject;
            false : accept;
        }
    }
    state parse_l4 {
        pkt.extract(hdr.l4);
        transition select(hdr.l4.dport, hdr.l4.sport[15:10]) {
            (0 .. 1023, _)            : accept;
            (_, 6w0x3F &&& 6w0x30)    : accept;
            default                   : accept;
        }
    }
}
