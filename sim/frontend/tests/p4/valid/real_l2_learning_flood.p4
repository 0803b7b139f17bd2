#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

struct mac_learn_digest_t {
    bit<48> srcAddr;
    bit<9>  ingress_port;
}

struct headers {
    ethernet_t ethernet;
}

struct metadata {
    bit<9> ingress_port;
}

parser L2Parser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

control L2Verify(inout headers hdr, inout metadata meta) {
    apply { }
}

control L2Ingress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }
    action mac_learn() {
        meta.ingress_port = standard_metadata.ingress_port;
        digest<mac_learn_digest_t>(1, { hdr.ethernet.srcAddr, meta.ingress_port });
    }
    action learned() { }

    table smac {
        key = {
            hdr.ethernet.srcAddr: exact;
        }
        actions = {
            mac_learn;
            learned;
        }
        size = 256;
        default_action = mac_learn;
    }

    action forward(bit<9> egress_port) {
        standard_metadata.egress_spec = egress_port;
    }
    action broadcast() {
        standard_metadata.mcast_grp = (bit<16>)standard_metadata.ingress_port;
    }
    table dmac {
        key = {
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            forward;
            broadcast;
            drop;
        }
        size = 256;
        default_action = broadcast;
    }

    apply {
        smac.apply();
        dmac.apply();
    }
}

control L2Egress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        // Source pruning, in case a group lists the ingress port too.
        if (standard_metadata.egress_port == standard_metadata.ingress_port) {
            mark_to_drop(standard_metadata);
        }
    }
}

control L2Compute(inout headers hdr, inout metadata meta) {
    apply { }
}

control L2Deparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
    }
}

V1Switch(L2Parser(), L2Verify(), L2Ingress(), L2Egress(), L2Compute(),
         L2Deparser()) main;
