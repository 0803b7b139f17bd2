// uBPF program (ubpf_model.p4, default version with standard_metadata):
// an IPv4 router for a P4rt-OVS bridge.  A longest-prefix-match table picks
// the next hop: the program rewrites the MAC addresses, decrements the TTL
// (patching the header checksum incrementally with csum_replace2) and asks
// the switch to send the packet out of the chosen port by setting
// output_action to REDIRECT.  Expired packets and misses are dropped both
// ways the model offers: mark_to_drop() and output_action = DROP.  ARP is
// handed back to the switch (PASS).
#include <core.p4>
#include <ubpf_model.p4>

typedef bit<48> mac_t;
typedef bit<32> ip4_t;
typedef bit<32> port_t;   // ports are bit<32> in standard_metadata

header ethernet_h {
    mac_t   dst;
    mac_t   src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> ident;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> checksum;
    ip4_t   src;
    ip4_t   dst;
}

struct headers_t {
    ethernet_h ethernet;
    ipv4_h     ipv4;
}

struct meta_t {
    bool is_arp;
}

parser RouterParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                    inout standard_metadata std) {
    state start {
        pkt.extract(hdr.ethernet);
        meta.is_arp = hdr.ethernet.ether_type == 0x0806;
        transition select(hdr.ethernet.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RouterPipe(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata std) {
    action drop() {
        mark_to_drop();
        std.output_action = ubpf_action.DROP;
    }

    action forward(port_t port, mac_t next_hop_mac, mac_t router_mac) {
        hdr.ethernet.src = router_mac;
        hdr.ethernet.dst = next_hop_mac;
        bit<16> old_word = hdr.ipv4.ttl ++ hdr.ipv4.protocol;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        hdr.ipv4.checksum = csum_replace2(hdr.ipv4.checksum, old_word,
                                          hdr.ipv4.ttl ++ hdr.ipv4.protocol);
        std.output_port = port;
        std.output_action = ubpf_action.REDIRECT;
    }

    table routes {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
        size = 1024;
    }

    apply {
        if (meta.is_arp) {
            mark_to_pass();
            std.output_action = ubpf_action.PASS;
        } else if (!hdr.ipv4.isValid()) {
            drop();
        } else if (hdr.ipv4.ttl <= 1) {
            drop();
        } else {
            routes.apply();
            // Never send a packet back where it came from.
            if (std.output_action == ubpf_action.REDIRECT &&
                std.output_port == std.input_port) {
                drop();
            }
        }
    }
}

control RouterDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

ubpf(RouterParser(), RouterPipe(), RouterDeparser()) main;
