// Heavy-hitter detection with a count-min sketch of three rows of 256
// counters. Every IPv4 packet adds one to one counter per row; the rows
// use different hashes of the 5-tuple:
//   row 0: crc16(tuple) % 256
//   row 1: crc32(tuple) % 256
//   row 2: crc32(tuple with its fields in reverse order) % 256
// The flow's estimated size is the minimum of its three counters. A flow
// whose estimate exceeds the threshold held in hh_threshold[0] (set by the
// control plane; 0 disables the check) is a heavy hitter: its packets are
// dropped and counted. Other packets are forwarded by ingress port
// (port_map). The control plane ages the sketch with register_reset.
#include <core.p4>
#include <v1model.p4>

#define SKETCH_WIDTH 256

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

header ports_h {
    bit<16> sport;
    bit<16> dport;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    ports_h    ports;
}

struct sketch_meta_t {
    bit<32> idx0;
    bit<32> idx1;
    bit<32> idx2;
    bit<32> c0;
    bit<32> c1;
    bit<32> c2;
    bit<32> estimate;
}

struct meta_t {
    bit<16>       sport;
    bit<16>       dport;
    sketch_meta_t sk;
}

parser HhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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
            6:       parse_ports;
            17:      parse_ports;
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        meta.sport = hdr.ports.sport;
        meta.dport = hdr.ports.dport;
        transition accept;
    }
}

control HhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

// One sketch update: bump the three counters and return the minimum.
control SketchUpdate(in headers_t hdr, inout meta_t meta) {
    register<bit<32>>(SKETCH_WIDTH) row0;
    register<bit<32>>(SKETCH_WIDTH) row1;
    register<bit<32>>(SKETCH_WIDTH) row2;

    apply {
        hash(meta.sk.idx0, HashAlgorithm.crc16, 32w0,
             { hdr.ipv4.src, hdr.ipv4.dst, hdr.ipv4.protocol, meta.sport, meta.dport },
             32w256);
        hash(meta.sk.idx1, HashAlgorithm.crc32, 32w0,
             { hdr.ipv4.src, hdr.ipv4.dst, hdr.ipv4.protocol, meta.sport, meta.dport },
             32w256);
        // Same fields in another order: a prefixed constant would not do,
        // as a CRC's difference between two keys ignores a common prefix.
        hash(meta.sk.idx2, HashAlgorithm.crc32, 32w0,
             { meta.dport, meta.sport, hdr.ipv4.protocol, hdr.ipv4.dst, hdr.ipv4.src },
             32w256);
        row0.read(meta.sk.c0, meta.sk.idx0);
        row1.read(meta.sk.c1, meta.sk.idx1);
        row2.read(meta.sk.c2, meta.sk.idx2);
        meta.sk.c0 = meta.sk.c0 + 1;
        meta.sk.c1 = meta.sk.c1 + 1;
        meta.sk.c2 = meta.sk.c2 + 1;
        row0.write(meta.sk.idx0, meta.sk.c0);
        row1.write(meta.sk.idx1, meta.sk.c1);
        row2.write(meta.sk.idx2, meta.sk.c2);
        meta.sk.estimate = meta.sk.c0;
        if (meta.sk.c1 < meta.sk.estimate) {
            meta.sk.estimate = meta.sk.c1;
        }
        if (meta.sk.c2 < meta.sk.estimate) {
            meta.sk.estimate = meta.sk.c2;
        }
    }
}

control HhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    SketchUpdate() sketch;
    register<bit<32>>(1) hh_threshold;
    counter(1, CounterType.packets_and_bytes) hh_dropped;

    action drop() {
        mark_to_drop(sm);
    }
    action to_port(bit<9> port) {
        sm.egress_spec = port;
    }
    table port_map {
        key = { sm.ingress_port : exact; }
        actions = { to_port; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        sketch.apply(hdr, meta);
        bit<32> threshold;
        hh_threshold.read(threshold, 0);
        if (threshold != 0 && meta.sk.estimate > threshold) {
            hh_dropped.count(0);
            drop();
        } else {
            port_map.apply();
        }
    }
}

control HhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HhCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ports);
    }
}

V1Switch(HhParser(), HhVerify(), HhIngress(), HhEgress(), HhCompute(),
         HhDeparser()) main;
