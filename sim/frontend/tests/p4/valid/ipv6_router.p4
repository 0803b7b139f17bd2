// Realistic v1model program: IPv6 router with 128-bit LPM, hop-limit
// handling, link-local filtering using masks on 128-bit constants, and a
// neighbor table keyed by the next-hop address selected by the route.
#include <core.p4>
#include <v1model.p4>

typedef bit<128> ipv6_addr_t;

const bit<16> ETH_IPV6 = 0x86DD;
const ipv6_addr_t LINK_LOCAL_PREFIX = 128w0xFE80_0000_0000_0000_0000_0000_0000_0000;
const ipv6_addr_t LINK_LOCAL_MASK   = 128w0xFFC0_0000_0000_0000_0000_0000_0000_0000;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src;
    ipv6_addr_t dst;
}

struct headers_t {
    ethernet_t eth;
    ipv6_t     ipv6;
}

struct meta_t {
    ipv6_addr_t next_hop;
}

parser V6Parser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETH_IPV6 : parse_ipv6;
            default  : accept;
        }
    }
    state parse_ipv6 {
        pkt.extract(hdr.ipv6);
        verify(hdr.ipv6.version == 6, error.NoMatch);
        transition accept;
    }
}

control V6Verify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control V6Ingress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action set_next_hop(ipv6_addr_t nh, bit<9> port) {
        meta.next_hop = nh;
        sm.egress_spec = port;
    }

    action directly_connected(bit<9> port) {
        meta.next_hop = hdr.ipv6.dst;
        sm.egress_spec = port;
    }

    table routes {
        key = { hdr.ipv6.dst : lpm; }
        actions = { set_next_hop; directly_connected; drop; }
        size = 8192;
        default_action = drop();
    }

    action set_dmac(bit<48> dmac, bit<48> smac) {
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
    }

    table neighbors {
        key = { meta.next_hop : exact; }
        actions = { set_dmac; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv6.isValid()) {
            drop();
            return;
        }
        // Link-local destinations are never routed.
        if (hdr.ipv6.dst & LINK_LOCAL_MASK == LINK_LOCAL_PREFIX) {
            drop();
            return;
        }
        if (hdr.ipv6.hop_limit <= 1) {
            drop();
            return;
        }
        hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
        routes.apply();
        neighbors.apply();
    }
}

control V6Egress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control V6Compute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control V6Deparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv6);
    }
}

V1Switch(V6Parser(), V6Verify(), V6Ingress(), V6Egress(), V6Compute(),
         V6Deparser()) main;
