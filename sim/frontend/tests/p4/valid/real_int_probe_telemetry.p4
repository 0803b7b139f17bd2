#include <core.p4>
#include <v1model.p4>

const bit<16> TYPE_PROBE = 0x0812;
#define MAX_HOPS 3

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header probe_t {
    bit<8>  hop_cnt;
    bit<8>  max_hops;
    bit<16> proto;
}

header hop_t {
    bit<8>  switch_id;
    bit<8>  instance_type;
    bit<16> ingress_port;
    bit<16> egress_port;
    bit<16> egress_rid;
    bit<32> pkt_len;
}

struct headers {
    ethernet_t      ethernet;
    probe_t         probe;
    hop_t[MAX_HOPS] hops;
}

struct metadata {
    bit<8> remaining;
}

parser ProbeParser(packet_in packet, out headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            TYPE_PROBE: parse_probe;
            default: accept;
        }
    }
    state parse_probe {
        packet.extract(hdr.probe);
        meta.remaining = hdr.probe.hop_cnt;
        transition select(meta.remaining) {
            0: accept;
            default: parse_hop;
        }
    }
    state parse_hop {
        packet.extract(hdr.hops.next);
        meta.remaining = meta.remaining - 1;
        transition select(meta.remaining) {
            0: accept;
            default: parse_hop;
        }
    }
}

control ProbeVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control ProbeIngress(inout headers hdr, inout metadata meta,
                     inout standard_metadata_t standard_metadata) {
    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    action flood() {
        standard_metadata.mcast_grp = 1;
    }
    table dmac {
        key = {
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            forward;
            flood;
        }
        default_action = flood();
    }
    apply {
        dmac.apply();
    }
}

control ProbeEgress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    bit<8> swid = 0;

    action set_swid(bit<8> id) {
        swid = id;
    }
    table switch_info {
        actions = {
            set_swid;
        }
        default_action = set_swid(7);
    }

    action record_hop() {
        hdr.hops.push_front(1);
        hdr.hops[0].setValid();
        hdr.hops[0].switch_id = swid;
        hdr.hops[0].instance_type = (bit<8>)standard_metadata.instance_type;
        hdr.hops[0].ingress_port = (bit<16>)standard_metadata.ingress_port;
        hdr.hops[0].egress_port = (bit<16>)standard_metadata.egress_port;
        hdr.hops[0].egress_rid = standard_metadata.egress_rid;
        hdr.hops[0].pkt_len = standard_metadata.packet_length;
        hdr.probe.hop_cnt = hdr.probe.hop_cnt + 1;
    }

    apply {
        if (standard_metadata.egress_port == standard_metadata.ingress_port) {
            mark_to_drop(standard_metadata);
        } else if (hdr.probe.isValid() && hdr.probe.hop_cnt < hdr.probe.max_hops) {
            switch_info.apply();
            record_hop();
        }
    }
}

control ProbeCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control ProbeDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.probe);
        packet.emit(hdr.hops);
    }
}

V1Switch(ProbeParser(), ProbeVerify(), ProbeIngress(), ProbeEgress(),
         ProbeCompute(), ProbeDeparser()) main;
