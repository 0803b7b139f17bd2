// Realistic v1model program: a VLAN-aware learning bridge. (VLAN, source MAC)
// pairs that miss the learning table are sent to the control plane with
// `digest`; known destinations are forwarded, unknown ones flooded to the
// VLAN's multicast group; station moves are detected and reported too.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;
typedef bit<12> vlan_id_t;

const bit<16> TPID_8021Q       = 0x8100;
const bit<32> DIGEST_NEW_MAC   = 1;
const bit<32> DIGEST_MOVED_MAC = 2;

header ethernet_t {
    mac_addr_t dst;
    mac_addr_t src;
    bit<16>    ether_type;
}

header dot1q_t {
    bit<3>    pcp;
    bit<1>    dei;
    vlan_id_t vid;
    bit<16>   ether_type;
}

struct bridge_headers_t {
    ethernet_t eth;
    dot1q_t    dot1q;
}

// Sent to the controller for each learning event.
struct mac_event_t {
    vlan_id_t  vid;
    mac_addr_t mac;
    bit<9>     port;
}

struct bridge_meta_t {
    vlan_id_t   vid;
    bit<9>      known_port;
    mac_event_t event;
}

parser BridgeParser(packet_in packet, out bridge_headers_t hdr,
                    inout bridge_meta_t meta, inout standard_metadata_t std) {
    state start {
        meta.vid = 0;
        meta.known_port = 0;
        packet.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            TPID_8021Q : parse_dot1q;
            default    : accept;
        }
    }
    state parse_dot1q {
        packet.extract(hdr.dot1q);
        meta.vid = hdr.dot1q.vid;
        transition accept;
    }
}

control BridgeVerifyChecksum(inout bridge_headers_t hdr, inout bridge_meta_t meta) {
    apply { }
}

control BridgeIngress(inout bridge_headers_t hdr, inout bridge_meta_t meta,
                      inout standard_metadata_t std) {
    action discard() {
        mark_to_drop(std);
    }

    // Untagged frames take the port's native VLAN.
    action set_native(vlan_id_t vid) {
        meta.vid = vid;
    }

    table native_vlan {
        key = { std.ingress_port : exact; }
        actions = { set_native; discard; }
        size = 512;
        default_action = discard();
    }

    action station_known(bit<9> port) {
        meta.known_port = port;
    }

    action station_unknown() {
        meta.known_port = 0;
    }

    table learned {
        key = {
            meta.vid    : exact;
            hdr.eth.src : exact;
        }
        actions = { station_known; station_unknown; }
        size = 8192;
        default_action = station_unknown();
    }

    action unicast(bit<9> port) {
        std.egress_spec = port;
    }

    action flood_vlan(bit<16> group) {
        std.mcast_grp = group;
    }

    table forwarding {
        key = {
            meta.vid    : exact;
            hdr.eth.dst : exact;
        }
        actions = { unicast; flood_vlan; discard; }
        size = 8192;
        default_action = discard();
    }

    table flood_groups {
        key = { meta.vid : exact; }
        actions = { flood_vlan; discard; }
        size = 4096;
        default_action = discard();
    }

    apply {
        if (!hdr.dot1q.isValid()) {
            native_vlan.apply();
        }
        learned.apply();
        meta.event.vid = meta.vid;
        meta.event.mac = hdr.eth.src;
        meta.event.port = std.ingress_port;
        if (meta.known_port == 0) {
            digest<mac_event_t>(DIGEST_NEW_MAC, meta.event);
        } else if (meta.known_port != std.ingress_port) {
            digest<mac_event_t>(DIGEST_MOVED_MAC, meta.event);
        }
        if (hdr.eth.dst[40:40] == 1) {
            // Group (multicast/broadcast) destination: flood within the VLAN.
            flood_groups.apply();
        } else {
            forwarding.apply();
        }
    }
}

control BridgeEgress(inout bridge_headers_t hdr, inout bridge_meta_t meta,
                     inout standard_metadata_t std) {
    apply {
        if (std.mcast_grp != 0 && std.egress_port == std.ingress_port) {
            mark_to_drop(std);
        }
    }
}

control BridgeComputeChecksum(inout bridge_headers_t hdr, inout bridge_meta_t meta) {
    apply { }
}

control BridgeDeparser(packet_out packet, in bridge_headers_t hdr) {
    apply {
        packet.emit(hdr);
    }
}

V1Switch(BridgeParser(), BridgeVerifyChecksum(), BridgeIngress(), BridgeEgress(),
         BridgeComputeChecksum(), BridgeDeparser()) main;
