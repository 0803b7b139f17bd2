// 802.1Q VLAN bridge with access and trunk ports.
// Ingress: port_mode classifies the arrival port. An access port takes
// untagged frames only and puts them in its VLAN with its default priority;
// a trunk port takes tagged frames only, in the VLAN of the tag. The port
// must be a member of that VLAN (vlan_member). The bridge then looks up
// (VLAN, destination MAC) in fdb; unknown destinations and broadcasts are
// flooded with the VLAN's multicast group (group id = VLAN id).
// Egress: copies never go back out of their arrival port; egress_vlan says
// whether the VLAN leaves this port untagged (the tag is popped) or tagged
// (a tag is pushed when the frame has none; an existing tag is kept with
// its priority). A port that is not in the VLAN drops the copy.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_VLAN = 0x8100;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header vlan_h {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> ether_type;
}

struct headers_t {
    ethernet_h eth;
    vlan_h     vlan;
}

struct meta_t {
    bit<12> vid;
    bit<3>  pcp;
}

parser VlanParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_VLAN: parse_vlan;
            default:  accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition accept;
    }
}

control VlanVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VlanIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action access(bit<12> vid, bit<3> pcp) {
        if (hdr.vlan.isValid()) {
            drop();
        } else {
            meta.vid = vid;
            meta.pcp = pcp;
        }
    }
    action trunk() {
        if (hdr.vlan.isValid()) {
            meta.vid = hdr.vlan.vid;
            meta.pcp = hdr.vlan.pcp;
        } else {
            drop();
        }
    }
    table port_mode {
        key = { sm.ingress_port : exact; }
        actions = { access; trunk; drop; }
        default_action = drop();
    }

    table vlan_member {
        key = {
            sm.ingress_port : exact;
            meta.vid        : exact;
        }
        actions = { NoAction; drop; }
        default_action = drop();
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    action flood() {
        sm.mcast_grp = (bit<16>)meta.vid;
    }
    table fdb {
        key = {
            meta.vid    : exact;
            hdr.eth.dst : exact;
        }
        actions = { forward; flood; }
        default_action = flood();
    }

    apply {
        port_mode.apply();
        if (sm.egress_spec == 511) {
            return;
        }
        if (vlan_member.apply().miss) {
            return;
        }
        fdb.apply();
        if (sm.mcast_grp == 0 && sm.egress_spec == sm.ingress_port) {
            drop();
        }
    }
}

control VlanEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action untagged() {
        if (hdr.vlan.isValid()) {
            hdr.eth.ether_type = hdr.vlan.ether_type;
            hdr.vlan.setInvalid();
        }
    }
    action tagged() {
        if (!hdr.vlan.isValid()) {
            hdr.vlan.setValid();
            hdr.vlan.pcp = meta.pcp;
            hdr.vlan.dei = 0;
            hdr.vlan.vid = meta.vid;
            hdr.vlan.ether_type = hdr.eth.ether_type;
            hdr.eth.ether_type = ETH_VLAN;
        }
    }
    action not_member() {
        mark_to_drop(sm);
    }
    table egress_vlan {
        key = {
            sm.egress_port : exact;
            meta.vid       : exact;
        }
        actions = { untagged; tagged; not_member; }
        default_action = not_member();
    }

    apply {
        if (sm.egress_port == sm.ingress_port) {
            mark_to_drop(sm);
        } else {
            egress_vlan.apply();
        }
    }
}

control VlanCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VlanDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.vlan);
    }
}

V1Switch(VlanParser(), VlanVerify(), VlanIngress(), VlanEgress(),
         VlanCompute(), VlanDeparser()) main;
