// Realistic v1model program: an L2 learning switch. Unknown source MACs are
// reported to the control plane with `digest`, known destinations are
// forwarded, unknown ones are flooded through a multicast group.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;
typedef bit<9>  port_id_t;

const bit<16> FLOOD_GROUP      = 16w1;
const bit<32> LEARN_RECEIVER   = 32w1;
const mac_t   BROADCAST_MAC    = 48w0xFFFF_FFFF_FFFF;

header ethernet_h {
    mac_t   dst;
    mac_t   src;
    bit<16> ether_type;
}

// What the control plane receives for every newly seen source address.
struct learn_digest_t {
    mac_t     src_mac;
    port_id_t in_port;
}

struct l2_headers_t {
    ethernet_h eth;
}

struct l2_meta_t {
    bool           needs_learning;
    bool           port_blocked;
    learn_digest_t learn;
}

parser L2Parser(packet_in pkt,
                out l2_headers_t hdr,
                inout l2_meta_t meta,
                inout standard_metadata_t std_meta) {
    state start {
        meta.needs_learning = false;
        meta.port_blocked = false;
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control L2VerifyChecksum(inout l2_headers_t hdr, inout l2_meta_t meta) {
    apply { }
}

control L2Ingress(inout l2_headers_t hdr,
                  inout l2_meta_t meta,
                  inout standard_metadata_t std_meta) {

    action drop() {
        mark_to_drop(std_meta);
    }

    // --- ingress port filtering ---
    action block_port() {
        meta.port_blocked = true;
    }

    action allow_port() {
        meta.port_blocked = false;
    }

    table port_filter {
        key = {
            std_meta.ingress_port : exact;
        }
        actions = {
            block_port;
            allow_port;
        }
        size = 512;
        default_action = allow_port();
    }

    // --- source learning ---
    action learn() {
        meta.needs_learning = true;
    }

    action source_known() {
        meta.needs_learning = false;
    }

    table source_mac {
        key = {
            hdr.eth.src           : exact;
            std_meta.ingress_port : exact;
        }
        actions = {
            learn;
            source_known;
        }
        size = 4096;
        default_action = learn();
    }

    // --- destination forwarding ---
    action forward(port_id_t port) {
        std_meta.egress_spec = port;
    }

    action flood() {
        std_meta.mcast_grp = FLOOD_GROUP;
    }

    table destination_mac {
        key = {
            hdr.eth.dst : exact;
        }
        actions = {
            forward;
            flood;
            drop;
        }
        size = 4096;
        default_action = flood();
    }

    apply {
        if (!hdr.eth.isValid()) {
            drop();
            return;
        }
        port_filter.apply();
        if (meta.port_blocked) {
            drop();
            return;
        }
        if (source_mac.apply().miss) {
            meta.learn.src_mac = hdr.eth.src;
            meta.learn.in_port = std_meta.ingress_port;
            digest<learn_digest_t>(LEARN_RECEIVER, meta.learn);
        }
        if (hdr.eth.dst == BROADCAST_MAC) {
            flood();
        } else {
            destination_mac.apply();
        }
    }
}

control L2Egress(inout l2_headers_t hdr,
                 inout l2_meta_t meta,
                 inout standard_metadata_t std_meta) {
    apply {
        // Never send a flooded copy back out of the port it arrived on.
        if (std_meta.mcast_grp == FLOOD_GROUP &&
            std_meta.egress_port == std_meta.ingress_port) {
            mark_to_drop(std_meta);
        }
    }
}

control L2ComputeChecksum(inout l2_headers_t hdr, inout l2_meta_t meta) {
    apply { }
}

control L2Deparser(packet_out pkt, in l2_headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
    }
}

V1Switch(L2Parser(),
         L2VerifyChecksum(),
         L2Ingress(),
         L2Egress(),
         L2ComputeChecksum(),
         L2Deparser()) main;
