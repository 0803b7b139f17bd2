// Realistic v1model program: a count-min sketch with three register rows
// indexed by three different hashes; flows whose estimate crosses a
// threshold are tagged and reported to the controller with a digest.
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

const bit<32> SKETCH_WIDTH = 2048;
const bit<32> HEAVY_THRESHOLD = 1000;

typedef bit<11> column_t;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<8>  ver_ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<16> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct flow_report_t {
    bit<32> src;
    bit<32> dst;
    bit<32> estimate;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4;
}

struct meta_t {
    column_t col0;
    column_t col1;
    column_t col2;
    bit<32>  cnt0;
    bit<32>  cnt1;
    bit<32>  cnt2;
    bit<32>  estimate;
}

parser HhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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
        transition accept;
    }
}

control HhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

// Returns the smaller of two counters.
bit<32> min32(in bit<32> a, in bit<32> b) {
    if (a < b) {
        return a;
    }
    return b;
}

control HhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>, column_t>(SKETCH_WIDTH) row0;
    register<bit<32>, column_t>(SKETCH_WIDTH) row1;
    register<bit<32>, column_t>(SKETCH_WIDTH) row2;

    action drop() {
        mark_to_drop(sm);
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    table route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }

    action update_sketch() {
        hash(meta.col0, HashAlgorithm.crc16, (column_t)0,
             { hdr.ipv4.src, hdr.ipv4.dst }, SKETCH_WIDTH);
        hash(meta.col1, HashAlgorithm.crc32, (column_t)0,
             { hdr.ipv4.src, hdr.ipv4.dst }, SKETCH_WIDTH);
        hash(meta.col2, HashAlgorithm.xor16, (column_t)0,
             { hdr.ipv4.dst, hdr.ipv4.src }, SKETCH_WIDTH);

        row0.read(meta.cnt0, meta.col0);
        row1.read(meta.cnt1, meta.col1);
        row2.read(meta.cnt2, meta.col2);
        meta.cnt0 = meta.cnt0 |+| 1;
        meta.cnt1 = meta.cnt1 |+| 1;
        meta.cnt2 = meta.cnt2 |+| 1;
        row0.write(meta.col0, meta.cnt0);
        row1.write(meta.col1, meta.cnt1);
        row2.write(meta.col2, meta.cnt2);
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        update_sketch();
        meta.estimate = min32(min32(meta.cnt0, meta.cnt1), meta.cnt2);
        if (meta.estimate == HEAVY_THRESHOLD) {
            flow_report_t report = {
                src = hdr.ipv4.src,
                dst = hdr.ipv4.dst,
                estimate = meta.estimate
            };
            digest<flow_report_t>(1, report);
        }
        if (meta.estimate >= HEAVY_THRESHOLD) {
            hdr.ipv4.tos = hdr.ipv4.tos | 8w0x04;
        }
        route.apply();
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
    }
}

V1Switch(HhParser(), HhVerify(), HhIngress(), HhEgress(), HhCompute(),
         HhDeparser()) main;
