// Realistic v1model program: IPv4 and IPv6 carried in one header_union.
// The parser extracts into exactly one member; the ingress tests validity of
// the union and of its members; the deparser emits the union as a whole.
#include <core.p4>
#include <v1model.p4>

typedef bit<32>  ip4_addr_t;
typedef bit<128> ip6_addr_t;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>     version;
    bit<4>     ihl;
    bit<8>     tos;
    bit<16>    total_length;
    bit<16>    identification;
    bit<3>     flags;
    bit<13>    fragment_offset;
    bit<8>     ttl;
    bit<8>     protocol;
    bit<16>    checksum;
    ip4_addr_t src;
    ip4_addr_t dst;
}

header ipv6_h {
    bit<4>     version;
    bit<8>     traffic_class;
    bit<20>    flow_label;
    bit<16>    payload_length;
    bit<8>     next_header;
    bit<8>     hop_limit;
    ip6_addr_t src;
    ip6_addr_t dst;
}

header_union ip_h {
    ipv4_h v4;
    ipv6_h v6;
}

struct headers_t {
    ethernet_h eth;
    ip_h       ip;
}

struct meta_t {
    bit<8> l4_protocol;
}

parser DualParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            16w0x0800 : parse_v4;
            16w0x86DD : parse_v6;
            default   : accept;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.ip.v4);
        meta.l4_protocol = hdr.ip.v4.protocol;
        transition accept;
    }
    state parse_v6 {
        pkt.extract(hdr.ip.v6);
        meta.l4_protocol = hdr.ip.v6.next_header;
        transition accept;
    }
}

control DualVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ip.v4.isValid(),
            { hdr.ip.v4.version, hdr.ip.v4.ihl, hdr.ip.v4.tos,
              hdr.ip.v4.total_length, hdr.ip.v4.identification,
              hdr.ip.v4.flags, hdr.ip.v4.fragment_offset, hdr.ip.v4.ttl,
              hdr.ip.v4.protocol, hdr.ip.v4.src, hdr.ip.v4.dst },
            hdr.ip.v4.checksum, HashAlgorithm.csum16);
    }
}

control DualIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action route_v4(bit<9> port, bit<48> dmac) {
        sm.egress_spec = port;
        hdr.eth.src = hdr.eth.dst;
        hdr.eth.dst = dmac;
        hdr.ip.v4.ttl = hdr.ip.v4.ttl - 1;
    }

    action route_v6(bit<9> port, bit<48> dmac) {
        sm.egress_spec = port;
        hdr.eth.src = hdr.eth.dst;
        hdr.eth.dst = dmac;
        hdr.ip.v6.hop_limit = hdr.ip.v6.hop_limit - 1;
    }

    table fib4 {
        key = { hdr.ip.v4.dst : lpm; }
        actions = { route_v4; drop; }
        default_action = drop();
    }

    table fib6 {
        key = { hdr.ip.v6.dst : lpm; }
        actions = { route_v6; drop; }
        default_action = drop();
    }

    // Classifies by L4 protocol independent of the IP version.
    action mark_tos(bit<8> tos) {
        if (hdr.ip.v4.isValid()) {
            hdr.ip.v4.tos = tos;
        } else {
            hdr.ip.v6.traffic_class = tos;
        }
    }

    table l4_class {
        key = { meta.l4_protocol : exact; }
        actions = { mark_tos; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (!hdr.ip.isValid()) {
            drop();
            return;
        }
        if (hdr.ip.v4.isValid()) {
            fib4.apply();
        } else if (hdr.ip.v6.isValid()) {
            fib6.apply();
        }
        l4_class.apply();
    }
}

control DualEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control DualCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ip.v4.isValid(),
            { hdr.ip.v4.version, hdr.ip.v4.ihl, hdr.ip.v4.tos,
              hdr.ip.v4.total_length, hdr.ip.v4.identification,
              hdr.ip.v4.flags, hdr.ip.v4.fragment_offset, hdr.ip.v4.ttl,
              hdr.ip.v4.protocol, hdr.ip.v4.src, hdr.ip.v4.dst },
            hdr.ip.v4.checksum, HashAlgorithm.csum16);
    }
}

control DualDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ip);
    }
}

V1Switch(DualParser(), DualVerify(), DualIngress(), DualEgress(),
         DualCompute(), DualDeparser()) main;
