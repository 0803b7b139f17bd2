// Realistic v1model program: IPv4 router with an LPM routing table, a ternary
// ACL with const entries (masks, ranges, don't-cares) and a direct counter,
// IPv4 header checksum verification and recomputation.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;

const bit<16> ETH_TYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TCP     = 6;
const bit<8>  PROTO_UDP     = 17;

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header l4_ports_t {
    bit<16> src_port;
    bit<16> dst_port;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    l4_ports_t l4;
}

struct metadata_t {
    bit<16> l4_sport;
    bit<16> l4_dport;
    bool    acl_denied;
}

parser RouterParser(packet_in packet,
                    out headers_t hdr,
                    inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        meta.l4_sport = 0;
        meta.l4_dport = 0;
        meta.acl_denied = false;
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETH_TYPE_IPV4 : parse_ipv4;
            default       : accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            PROTO_TCP : parse_l4;
            PROTO_UDP : parse_l4;
            default   : accept;
        }
    }

    state parse_l4 {
        packet.extract(hdr.l4);
        meta.l4_sport = hdr.l4.src_port;
        meta.l4_dport = hdr.l4.dst_port;
        transition accept;
    }
}

control RouterVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version,
              hdr.ipv4.ihl,
              hdr.ipv4.diffserv,
              hdr.ipv4.total_len,
              hdr.ipv4.identification,
              hdr.ipv4.flags,
              hdr.ipv4.frag_offset,
              hdr.ipv4.ttl,
              hdr.ipv4.protocol,
              hdr.ipv4.src_addr,
              hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control RouterIngress(inout headers_t hdr,
                      inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {

    direct_counter(CounterType.packets_and_bytes) acl_stats;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action set_nexthop(mac_addr_t next_mac, bit<9> port) {
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = next_mac;
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table ipv4_lpm {
        key = {
            hdr.ipv4.dst_addr : lpm;
        }
        actions = {
            set_nexthop;
            drop;
            NoAction;
        }
        size = 16384;
        default_action = drop();
    }

    action acl_permit() {
        acl_stats.count();
        meta.acl_denied = false;
    }

    action acl_deny() {
        acl_stats.count();
        meta.acl_denied = true;
    }

    table acl {
        key = {
            hdr.ipv4.src_addr : ternary;
            hdr.ipv4.dst_addr : ternary;
            hdr.ipv4.protocol : ternary;
            meta.l4_dport     : range;
        }
        actions = {
            acl_permit;
            acl_deny;
        }
        counters = acl_stats;
        const default_action = acl_permit();
        // Earlier entries win, as the spec orders const entries by position.
        const entries = {
            (0x0A00_0000 &&& 0xFF00_0000, _, PROTO_TCP, 22 .. 22)     : acl_deny();
            (_, 0xC0A8_0000 &&& 0xFFFF_0000, PROTO_UDP, 53 .. 53)     : acl_permit();
            (_, _, 8w1 &&& 8w0xFF, _)                                   : acl_permit();
            (_, _, _, 16w0 .. 16w1023)                                  : acl_deny();
        }
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            exit;
        }
        if (hdr.ipv4.ttl <= 1) {
            drop();
            exit;
        }
        acl.apply();
        if (meta.acl_denied) {
            drop();
        } else {
            ipv4_lpm.apply();
        }
    }
}

control RouterEgress(inout headers_t hdr,
                     inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action rewrite_source(mac_addr_t smac) {
        hdr.ethernet.src_addr = smac;
    }

    table port_mac {
        key = {
            standard_metadata.egress_port : exact;
        }
        actions = {
            rewrite_source;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        if (hdr.ipv4.isValid()) {
            port_mac.apply();
        }
    }
}

control RouterComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version,
              hdr.ipv4.ihl,
              hdr.ipv4.diffserv,
              hdr.ipv4.total_len,
              hdr.ipv4.identification,
              hdr.ipv4.flags,
              hdr.ipv4.frag_offset,
              hdr.ipv4.ttl,
              hdr.ipv4.protocol,
              hdr.ipv4.src_addr,
              hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control RouterDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.l4);
    }
}

V1Switch(RouterParser(),
         RouterVerifyChecksum(),
         RouterIngress(),
         RouterEgress(),
         RouterComputeChecksum(),
         RouterDeparser()) main;
