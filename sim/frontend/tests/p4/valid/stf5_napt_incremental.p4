// Source NAPT for TCP and UDP between an inside port (1) and an outside
// port (2).
// - Outbound (from port 1): nat_out maps (private address, port, protocol)
//   to a public address and port; packets without a mapping go unchanged
//   to the controller port 64 so that it can create one.
// - Inbound (from port 2): nat_in maps (public address, port, protocol)
//   back; packets without a mapping are dropped.
// Translated packets are routed (LPM, TTL-1, MAC rewrite).
// Checksums: the IPv4 header checksum is recomputed by update_checksum.
// The TCP checksum is updated incrementally in the data plane, RFC 1624
// eqn. 3 (HC' = ~(~HC + ~m + m')) over the changed address and port words.
// The UDP checksum is recomputed with update_checksum_with_payload over the
// pseudo-header, the UDP header and the payload, except that a zero UDP
// checksum (none sent) stays zero.
#include <core.p4>
#include <v1model.p4>

const bit<9> CPU_PORT = 64;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src;
    bit<32> dst;
}

header tcp_h {
    bit<16> sport;
    bit<16> dport;
    bit<32> seq;
    bit<32> ack;
    bit<4>  data_offset;
    bit<4>  reserved;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent;
}

header udp_h {
    bit<16> sport;
    bit<16> dport;
    bit<16> length;
    bit<16> checksum;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    tcp_h      tcp;
    udp_h      udp;
}

struct meta_t {
    bit<16> sport;
    bit<16> dport;
    bit<1>  translated;
}

// One's-complement addition of two 16-bit words (end-around carry).
bit<16> ones_add(in bit<16> a, in bit<16> b) {
    bit<17> sum = (bit<17>)a + (bit<17>)b;
    return sum[15:0] + (bit<16>)sum[16:16];
}

// RFC 1624 eqn. 3 for one changed 32-bit value and one changed 16-bit value.
bit<16> csum_replace(in bit<16> csum, in bit<32> old_addr, in bit<32> new_addr,
                     in bit<16> old_port, in bit<16> new_port) {
    bit<16> x = ~csum;
    x = ones_add(x, ~old_addr[31:16]);
    x = ones_add(x, ~old_addr[15:0]);
    x = ones_add(x, ~old_port);
    x = ones_add(x, new_addr[31:16]);
    x = ones_add(x, new_addr[15:0]);
    x = ones_add(x, new_port);
    return ~x;
}

parser NatParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (5, 0, 6):  parse_tcp;
            (5, 0, 17): parse_udp;
            default:    accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        meta.sport = hdr.tcp.sport;
        meta.dport = hdr.tcp.dport;
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        meta.sport = hdr.udp.sport;
        meta.dport = hdr.udp.dport;
        transition accept;
    }
}

control NatVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NatIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }
    action to_controller() {
        sm.egress_spec = CPU_PORT;
    }

    action snat(bit<32> public_addr, bit<16> public_port) {
        if (hdr.tcp.isValid()) {
            hdr.tcp.checksum = csum_replace(hdr.tcp.checksum, hdr.ipv4.src,
                                            public_addr, hdr.tcp.sport, public_port);
            hdr.tcp.sport = public_port;
        } else {
            hdr.udp.sport = public_port;
        }
        hdr.ipv4.src = public_addr;
        meta.translated = 1;
    }
    table nat_out {
        key = {
            hdr.ipv4.src      : exact;
            meta.sport        : exact;
            hdr.ipv4.protocol : exact;
        }
        actions = { snat; to_controller; }
        default_action = to_controller();
    }

    action dnat(bit<32> private_addr, bit<16> private_port) {
        if (hdr.tcp.isValid()) {
            hdr.tcp.checksum = csum_replace(hdr.tcp.checksum, hdr.ipv4.dst,
                                            private_addr, hdr.tcp.dport, private_port);
            hdr.tcp.dport = private_port;
        } else {
            hdr.udp.dport = private_port;
        }
        hdr.ipv4.dst = private_addr;
        meta.translated = 1;
    }
    table nat_in {
        key = {
            hdr.ipv4.dst      : exact;
            meta.dport        : exact;
            hdr.ipv4.protocol : exact;
        }
        actions = { dnat; drop; }
        default_action = drop();
    }

    action route(bit<9> port, bit<48> dmac, bit<48> smac) {
        sm.egress_spec = port;
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.tcp.isValid() && !hdr.udp.isValid()) {
            drop();
            return;
        }
        if (hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        if (sm.ingress_port == 1) {
            nat_out.apply();
        } else if (sm.ingress_port == 2) {
            nat_in.apply();
        } else {
            drop();
        }
        if (meta.translated == 1) {
            ipv4_lpm.apply();
        }
    }
}

control NatEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control NatCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(
            meta.translated == 1 && hdr.udp.isValid() && hdr.udp.checksum != 0,
            { hdr.ipv4.src, hdr.ipv4.dst, 8w0, hdr.ipv4.protocol, hdr.udp.length,
              hdr.udp.sport, hdr.udp.dport, hdr.udp.length },
            hdr.udp.checksum, HashAlgorithm.csum16);
    }
}

control NatDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
    }
}

V1Switch(NatParser(), NatVerify(), NatIngress(), NatEgress(), NatCompute(),
         NatDeparser()) main;
