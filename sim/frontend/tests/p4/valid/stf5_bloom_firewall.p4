// Stateful firewall with a Bloom filter of two bit arrays.
// Ports are internal or external (port_zone). A TCP or UDP packet arriving
// on an internal port (outbound traffic) sets, for its 5-tuple, bit
// crc16(tuple) % 1024 in bloom_a and bit crc32(tuple) % 1024 in bloom_b.
// A packet arriving on an external port is let in only when both bits of
// its reversed tuple (dst, src, dport, sport, proto) are set, i.e. when
// some internal host sent to it first (with the usual Bloom filter false
// positives). Other inbound traffic, including non-TCP/UDP, is dropped
// and counted. Allowed packets are routed (LPM), their TTL is decremented
// and the IPv4 checksum recomputed.
#include <core.p4>
#include <v1model.p4>

#define BLOOM_CELLS 1024

const bit<8> ZONE_INTERNAL = 0;
const bit<8> ZONE_EXTERNAL = 1;

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
    bit<8>  zone;
    bit<32> idx_a;
    bit<32> idx_b;
}

parser FwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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
        transition select(hdr.ipv4.protocol) {
            6:       parse_tcp;
            17:      parse_udp;
            default: accept;
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

control FwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control FwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<1>>(BLOOM_CELLS) bloom_a;
    register<bit<1>>(BLOOM_CELLS) bloom_b;
    counter(2, CounterType.packets) blocked;   // 0: not TCP/UDP, 1: no state

    action drop() {
        mark_to_drop(sm);
    }

    action set_zone(bit<8> zone) {
        meta.zone = zone;
    }
    table port_zone {
        key = { sm.ingress_port : exact; }
        actions = { set_zone; }
        default_action = set_zone(ZONE_EXTERNAL);
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

    action hash_outbound() {
        hash(meta.idx_a, HashAlgorithm.crc16, 32w0,
             { hdr.ipv4.src, hdr.ipv4.dst, meta.sport, meta.dport, hdr.ipv4.protocol },
             (bit<32>)BLOOM_CELLS);
        hash(meta.idx_b, HashAlgorithm.crc32, 32w0,
             { hdr.ipv4.src, hdr.ipv4.dst, meta.sport, meta.dport, hdr.ipv4.protocol },
             (bit<32>)BLOOM_CELLS);
    }
    // The tuple the matching outbound packet had.
    action hash_inbound() {
        hash(meta.idx_a, HashAlgorithm.crc16, 32w0,
             { hdr.ipv4.dst, hdr.ipv4.src, meta.dport, meta.sport, hdr.ipv4.protocol },
             (bit<32>)BLOOM_CELLS);
        hash(meta.idx_b, HashAlgorithm.crc32, 32w0,
             { hdr.ipv4.dst, hdr.ipv4.src, meta.dport, meta.sport, hdr.ipv4.protocol },
             (bit<32>)BLOOM_CELLS);
    }

    apply {
        if (!hdr.ipv4.isValid() || hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        port_zone.apply();
        bool l4 = hdr.tcp.isValid() || hdr.udp.isValid();
        if (meta.zone == ZONE_INTERNAL) {
            if (l4) {
                hash_outbound();
                bloom_a.write(meta.idx_a, 1);
                bloom_b.write(meta.idx_b, 1);
            }
        } else {
            if (!l4) {
                blocked.count(0);
                drop();
                return;
            }
            hash_inbound();
            bit<1> a;
            bit<1> b;
            bloom_a.read(a, meta.idx_a);
            bloom_b.read(b, meta.idx_b);
            if (a == 0 || b == 0) {
                blocked.count(1);
                drop();
                return;
            }
        }
        ipv4_lpm.apply();
    }
}

control FwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control FwCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control FwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
    }
}

V1Switch(FwParser(), FwVerify(), FwIngress(), FwEgress(), FwCompute(),
         FwDeparser()) main;
