// Multi-hop route inspection. A probe frame (ethertype 0x88B5) carries a
// small header {hop_count, max_hops, flags} followed by hop_count records,
// newest first. Every switch forwards on the destination MAC and, in
// egress, pushes one record {switch id, ingress port, egress port} onto
// the front of the stack and bumps hop_count.
// When the probe already holds max_hops records, or the stack (6 entries)
// is full, no record is added and the overflow flag is set instead.
// The switch id comes from a keyless table configured by the control plane.
// Probes whose records do not parse (more than 6, or truncated) are dropped.
// Other frames are just forwarded.
#include <core.p4>
#include <v1model.p4>

#define MAX_RECORDS 6

const bit<16> ETH_PROBE = 0x88B5;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header probe_h {
    bit<8> hop_count;
    bit<8> max_hops;
    bit<7> reserved;
    bit<1> overflow;
    bit<8> next_proto;
}

header hop_record_h {
    bit<32> switch_id;
    bit<16> ingress_port;
    bit<16> egress_port;
}

struct headers_t {
    ethernet_h   eth;
    probe_h      probe;
    hop_record_h[MAX_RECORDS] hops;
}

struct meta_t {
    bit<8>  records_left;
    bit<32> switch_id;
}

parser ProbeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_PROBE: parse_probe;
            default:   accept;
        }
    }
    state parse_probe {
        pkt.extract(hdr.probe);
        meta.records_left = hdr.probe.hop_count;
        transition parse_records;
    }
    state parse_records {
        transition select(meta.records_left) {
            0:       accept;
            default: parse_record;
        }
    }
    state parse_record {
        pkt.extract(hdr.hops.next);
        meta.records_left = meta.records_left - 1;
        transition parse_records;
    }
}

control ProbeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ProbeIngress(inout headers_t hdr, inout meta_t meta,
                     inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }
    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    table l2_fwd {
        key = { hdr.eth.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }
    apply {
        if (sm.parser_error != error.NoError) {
            drop();
        } else {
            l2_fwd.apply();
        }
    }
}

control ProbeEgress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action set_switch_id(bit<32> id) {
        meta.switch_id = id;
    }
    table switch_cfg {
        actions = { set_switch_id; }
        default_action = set_switch_id(0);
    }

    action add_record() {
        hdr.hops.push_front(1);
        hdr.hops[0].setValid();
        hdr.hops[0].switch_id = meta.switch_id;
        hdr.hops[0].ingress_port = (bit<16>)sm.ingress_port;
        hdr.hops[0].egress_port = (bit<16>)sm.egress_port;
        hdr.probe.hop_count = hdr.probe.hop_count + 1;
    }

    apply {
        if (hdr.probe.isValid()) {
            switch_cfg.apply();
            if (hdr.probe.hop_count < hdr.probe.max_hops &&
                hdr.probe.hop_count < MAX_RECORDS) {
                add_record();
            } else {
                hdr.probe.overflow = 1;
            }
        }
    }
}

control ProbeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ProbeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.probe);
        pkt.emit(hdr.hops);
    }
}

V1Switch(ProbeParser(), ProbeVerify(), ProbeIngress(), ProbeEgress(),
         ProbeCompute(), ProbeDeparser()) main;
