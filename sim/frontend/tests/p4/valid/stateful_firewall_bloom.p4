// Realistic v1model program: a stateful firewall. Outbound TCP flows are
// recorded in a two-hash bloom filter kept in registers; inbound packets are
// only admitted if both filter bits for the reversed flow are set.
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

const bit<32> BLOOM_SIZE = 4096;
typedef bit<12> bloom_index_t;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> len;
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
    bit<4>  offset;
    bit<4>  reserved;
    bit<1>  cwr;
    bit<1>  ece;
    bit<1>  urg;
    bit<1>  ack_flag;
    bit<1>  psh;
    bit<1>  rst;
    bit<1>  syn;
    bit<1>  fin;
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
    bloom_index_t idx1;
    bloom_index_t idx2;
    bit<1>        bit1;
    bit<1>        bit2;
    bit<2>        direction;
}

parser FwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
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

control FwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control FwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<1>, bloom_index_t>(BLOOM_SIZE) bloom1;
    register<bit<1>, bloom_index_t>(BLOOM_SIZE) bloom2;

    action drop() {
        mark_to_drop(sm);
    }

    action compute_indices(bit<32> a_ip, bit<32> b_ip, bit<16> a_port, bit<16> b_port) {
        hash(meta.idx1, HashAlgorithm.crc16, (bloom_index_t)0,
             { a_ip, b_ip, a_port, b_port, hdr.ipv4.proto }, (bit<32>)BLOOM_SIZE);
        hash(meta.idx2, HashAlgorithm.crc32, (bloom_index_t)0,
             { a_ip, b_ip, a_port, b_port, hdr.ipv4.proto }, (bit<32>)BLOOM_SIZE);
    }

    action set_direction(bit<2> dir) {
        meta.direction = dir;
    }

    // 0: internal to external, 1: external to internal, other: not filtered.
    table check_ports {
        key = {
            sm.ingress_port : exact;
            sm.egress_spec  : exact;
        }
        actions = { set_direction; NoAction; }
        default_action = set_direction(2w2);
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
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
        route.apply();
        if (!hdr.tcp.isValid()) {
            return;
        }
        check_ports.apply();
        if (meta.direction == 0) {
            compute_indices(hdr.ipv4.src, hdr.ipv4.dst, hdr.tcp.sport, hdr.tcp.dport);
            if (hdr.tcp.syn == 1) {
                bloom1.write(meta.idx1, 1);
                bloom2.write(meta.idx2, 1);
            }
        } else if (meta.direction == 1) {
            // Look the flow up with source and destination swapped.
            compute_indices(hdr.ipv4.dst, hdr.ipv4.src, hdr.tcp.dport, hdr.tcp.sport);
            bloom1.read(meta.bit1, meta.idx1);
            bloom2.read(meta.bit2, meta.idx2);
            if (meta.bit1 != 1 || meta.bit2 != 1) {
                drop();
            }
        }
    }
}

control FwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control FwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control FwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
    }
}

V1Switch(FwParser(), FwVerify(), FwIngress(), FwEgress(), FwCompute(),
         FwDeparser()) main;
