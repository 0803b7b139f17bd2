// Explicit Congestion Notification (RFC 3168) marking with a software queue
// model: simple_switch's queue depth is not usable in a deterministic test,
// so egress keeps a per-port "backlog" register that grows by one per packet
// sent and that the control plane drains by writing it (register_write).
// When the backlog is above the threshold in ecn_threshold[0] (0 disables
// marking):
//   - ECN-capable packets (ECT(0) = 2, ECT(1) = 1) are marked CE (3);
//   - CE packets stay CE;
//   - non-ECT packets (0) are dropped, as an AQM would do.
// Marks and drops are counted per port. Ingress forwards on an exact match
// of the destination address; the IPv4 checksum is recomputed.
#include <core.p4>
#include <v1model.p4>

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
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

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
}

struct meta_t { }

const bit<2> NOT_ECT = 0;
const bit<2> ECT1    = 1;
const bit<2> ECT0    = 2;
const bit<2> CE      = 3;

parser EcnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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
        transition accept;
    }
}

control EcnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EcnIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }
    action forward(bit<9> port, bit<48> dmac) {
        sm.egress_spec = port;
        hdr.eth.src = hdr.eth.dst;
        hdr.eth.dst = dmac;
    }
    table fwd {
        key = { hdr.ipv4.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            fwd.apply();
        } else {
            drop();
        }
    }
}

control EcnEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>>(16) port_backlog;
    register<bit<32>>(1) ecn_threshold;
    counter(16, CounterType.packets) ce_marked;
    counter(16, CounterType.packets) aqm_dropped;

    apply {
        bit<32> port = (bit<32>)sm.egress_port;
        bit<32> backlog;
        bit<32> threshold;
        port_backlog.read(backlog, port);
        backlog = backlog + 1;
        port_backlog.write(port, backlog);
        ecn_threshold.read(threshold, 0);

        if (threshold != 0 && backlog > threshold) {
            if (hdr.ipv4.ecn == ECT0 || hdr.ipv4.ecn == ECT1) {
                hdr.ipv4.ecn = CE;
                ce_marked.count(port);
            } else if (hdr.ipv4.ecn == NOT_ECT) {
                aqm_dropped.count(port);
                mark_to_drop(sm);
            }
        }
    }
}

control EcnCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control EcnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(EcnParser(), EcnVerify(), EcnIngress(), EcnEgress(), EcnCompute(),
         EcnDeparser()) main;
