// Realistic v1model program: source NAT for TCP. Rewrites addresses and
// ports from a table, then fixes the IPv4 checksum with update_checksum and
// the TCP checksum (pseudo-header + payload) with update_checksum_with_payload.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header tcp_t {
    bit<16> sport;
    bit<16> dport;
    bit<32> seq;
    bit<32> ack;
    bit<4>  data_offset;
    bit<4>  reserved;
    bit<8>  flags;
    bit<16> window;
    bit<16> csum;
    bit<16> urgent;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4;
    tcp_t      tcp;
}

struct meta_t {
    bit<16> tcp_length;
    bool    translated;
}

parser NatParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        meta.translated = false;
        meta.tcp_length = 0;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        meta.tcp_length = hdr.ipv4.total_len - ((bit<16>)hdr.ipv4.ihl << 2);
        transition select(hdr.ipv4.proto) {
            6       : parse_tcp;
            default : accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        transition accept;
    }
}

control NatVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos,
              hdr.ipv4.total_len, hdr.ipv4.id, hdr.ipv4.flags,
              hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
        verify_checksum_with_payload(hdr.tcp.isValid(),
            { hdr.ipv4.src, hdr.ipv4.dst, 8w0, hdr.ipv4.proto,
              meta.tcp_length,
              hdr.tcp.sport, hdr.tcp.dport, hdr.tcp.seq, hdr.tcp.ack,
              hdr.tcp.data_offset, hdr.tcp.reserved, hdr.tcp.flags,
              hdr.tcp.window, hdr.tcp.urgent },
            hdr.tcp.csum, HashAlgorithm.csum16);
    }
}

control NatIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action snat(bit<32> public_ip, bit<16> public_port) {
        hdr.ipv4.src = public_ip;
        hdr.tcp.sport = public_port;
        meta.translated = true;
    }

    action dnat(bit<32> private_ip, bit<16> private_port) {
        hdr.ipv4.dst = private_ip;
        hdr.tcp.dport = private_port;
        meta.translated = true;
    }

    table nat_outbound {
        key = {
            hdr.ipv4.src  : exact;
            hdr.tcp.sport : exact;
        }
        actions = { snat; NoAction; }
        default_action = NoAction();
    }

    table nat_inbound {
        key = {
            hdr.ipv4.dst  : exact;
            hdr.tcp.dport : exact;
        }
        actions = { dnat; drop; NoAction; }
        default_action = NoAction();
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        if (hdr.tcp.isValid()) {
            // Private side is ports 0..15 on this switch.
            if (sm.ingress_port < 16) {
                nat_outbound.apply();
            } else {
                nat_inbound.apply();
            }
        }
        route.apply();
    }
}

control NatEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control NatCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos,
              hdr.ipv4.total_len, hdr.ipv4.id, hdr.ipv4.flags,
              hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
        update_checksum_with_payload(hdr.tcp.isValid() && meta.translated,
            { hdr.ipv4.src, hdr.ipv4.dst, 8w0, hdr.ipv4.proto,
              meta.tcp_length,
              hdr.tcp.sport, hdr.tcp.dport, hdr.tcp.seq, hdr.tcp.ack,
              hdr.tcp.data_offset, hdr.tcp.reserved, hdr.tcp.flags,
              hdr.tcp.window, hdr.tcp.urgent },
            hdr.tcp.csum, HashAlgorithm.csum16);
    }
}

control NatDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
    }
}

V1Switch(NatParser(), NatVerify(), NatIngress(), NatEgress(), NatCompute(),
         NatDeparser()) main;
