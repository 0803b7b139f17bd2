// Realistic v1model program: an IPv4 router. Frames addressed to a router
// MAC are checked against a ternary/range ACL (const entries, first match
// wins), routed by LPM to a next hop, rewritten, and their IPv4 checksum is
// verified on the way in and recomputed on the way out.
#include <core.p4>
#include <v1model.p4>

typedef bit<32> ip4_t;
typedef bit<48> mac_t;

const bit<9>  CPU_PORT      = 192;
const bit<16> ETHERTYPE_IP4 = 0x0800;

header eth_h {
    mac_t   dst;
    mac_t   src;
    bit<16> ether_type;
}

header ip4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
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

header l4_h {
    bit<16> sport;
    bit<16> dport;
}

struct router_headers_t {
    eth_h eth;
    ip4_h ip4;
    l4_h  l4;
}

struct router_meta_t {
    bit<16> nexthop_id;
    bit<16> sport;
    bit<16> dport;
    bool    routable;
}

parser RouterParser(packet_in packet, out router_headers_t hdr,
                    inout router_meta_t meta, inout standard_metadata_t std) {
    state start {
        meta.sport = 0;
        meta.dport = 0;
        meta.routable = false;
        packet.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETHERTYPE_IP4 : parse_ip4;
            default       : accept;
        }
    }
    state parse_ip4 {
        packet.extract(hdr.ip4);
        transition select(hdr.ip4.ihl, hdr.ip4.frag_offset, hdr.ip4.protocol) {
            (5, 0, 6)  : parse_l4;
            (5, 0, 17) : parse_l4;
            default    : accept;
        }
    }
    state parse_l4 {
        packet.extract(hdr.l4);
        meta.sport = hdr.l4.sport;
        meta.dport = hdr.l4.dport;
        transition accept;
    }
}

control RouterVerifyChecksum(inout router_headers_t hdr, inout router_meta_t meta) {
    apply {
        verify_checksum(hdr.ip4.isValid(),
            { hdr.ip4.version, hdr.ip4.ihl, hdr.ip4.dscp, hdr.ip4.ecn,
              hdr.ip4.total_len, hdr.ip4.ident, hdr.ip4.flags,
              hdr.ip4.frag_offset, hdr.ip4.ttl, hdr.ip4.protocol,
              hdr.ip4.src, hdr.ip4.dst },
            hdr.ip4.checksum,
            HashAlgorithm.csum16);
    }
}

control RouterIngress(inout router_headers_t hdr, inout router_meta_t meta,
                      inout standard_metadata_t std) {
    direct_counter(CounterType.packets) acl_hits;

    action discard() {
        mark_to_drop(std);
    }

    action punt() {
        std.egress_spec = CPU_PORT;
    }

    action l3_interface() {
        meta.routable = true;
    }

    table router_mac {
        key = {
            std.ingress_port : exact;
            hdr.eth.dst      : exact;
        }
        actions = { l3_interface; NoAction; }
        default_action = NoAction();
    }

    action acl_allow() {
        acl_hits.count();
    }

    action acl_block() {
        acl_hits.count();
        mark_to_drop(std);
    }

    action acl_to_cpu() {
        acl_hits.count();
        std.egress_spec = CPU_PORT;
    }

    table acl {
        key = {
            hdr.ip4.src      : ternary;
            hdr.ip4.dst      : ternary;
            hdr.ip4.protocol : ternary;
            meta.dport       : range;
        }
        actions = { acl_allow; acl_block; acl_to_cpu; }
        counters = acl_hits;
        default_action = acl_allow();
        const entries = {
            (_, _, 8w89, _)                                   : acl_to_cpu();  // OSPF
            (_, _, 6, 179 .. 179)                             : acl_to_cpu();  // BGP
            (0xC0A8_0000 &&& 0xFFFF_0000, _, _, _)           : acl_block();   // spoofed
            (_, 0x0A00_0000 &&& 0xFF00_0000, 17, 0 .. 1023)  : acl_block();
        }
    }

    action set_nexthop(bit<16> id) {
        meta.nexthop_id = id;
        hdr.ip4.ttl = hdr.ip4.ttl - 1;
    }

    table fib {
        key = { hdr.ip4.dst : lpm; }
        actions = { set_nexthop; discard; punt; }
        size = 32768;
        default_action = discard();
    }

    action rewrite(mac_t dmac, mac_t smac, bit<9> port) {
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        std.egress_spec = port;
    }

    table nexthops {
        key = { meta.nexthop_id : exact; }
        actions = { rewrite; discard; }
        size = 4096;
        default_action = discard();
    }

    apply {
        if (std.checksum_error == 1 || std.parser_error != error.NoError) {
            discard();
            return;
        }
        router_mac.apply();
        if (!meta.routable || !hdr.ip4.isValid()) {
            discard();
            return;
        }
        if (hdr.ip4.ttl <= 1) {
            punt();
            return;
        }
        switch (acl.apply().action_run) {
            acl_block:
            acl_to_cpu: {
                return;
            }
            default: { }
        }
        if (fib.apply().hit) {
            nexthops.apply();
        }
    }
}

control RouterEgress(inout router_headers_t hdr, inout router_meta_t meta,
                     inout standard_metadata_t std) {
    apply { }
}

control RouterComputeChecksum(inout router_headers_t hdr, inout router_meta_t meta) {
    apply {
        update_checksum(hdr.ip4.isValid(),
            { hdr.ip4.version, hdr.ip4.ihl, hdr.ip4.dscp, hdr.ip4.ecn,
              hdr.ip4.total_len, hdr.ip4.ident, hdr.ip4.flags,
              hdr.ip4.frag_offset, hdr.ip4.ttl, hdr.ip4.protocol,
              hdr.ip4.src, hdr.ip4.dst },
            hdr.ip4.checksum,
            HashAlgorithm.csum16);
    }
}

control RouterDeparser(packet_out packet, in router_headers_t hdr) {
    apply {
        packet.emit(hdr.eth);
        packet.emit(hdr.ip4);
        packet.emit(hdr.l4);
    }
}

V1Switch(RouterParser(), RouterVerifyChecksum(), RouterIngress(), RouterEgress(),
         RouterComputeChecksum(), RouterDeparser()) main;
