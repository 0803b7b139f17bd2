// Realistic v1model program: an 802.1Q VLAN bridge. The EtherType field is a
// serializable enum, ports are a `type`-declared new type, VLAN tags are
// pushed and popped with setValid/setInvalid, and parser errors are handled
// with a switch on the `error` value.
#include <core.p4>
#include <v1model.p4>

enum bit<16> ether_type_t {
    IPV4 = 0x0800,
    ARP  = 0x0806,
    VLAN = 0x8100,
    IPV6 = 0x86DD
}

type bit<9> port_t;
typedef bit<12> vid_t;

header ethernet_t {
    bit<48>      dst;
    bit<48>      src;
    ether_type_t etype;
}

header vlan_tag_t {
    bit<3>       pcp;
    bit<1>       dei;
    vid_t        vid;
    ether_type_t etype;
}

struct headers_t {
    ethernet_t eth;
    vlan_tag_t vlan;
}

struct meta_t {
    vid_t  vid;
    port_t in_port;
    bool   egress_tagged;
}

parser BridgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    state start {
        meta.in_port = (port_t)sm.ingress_port;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ether_type_t.VLAN : parse_vlan;
            default           : accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition select(hdr.vlan.etype) {
            ether_type_t.VLAN : reject;      // no QinQ on this bridge
            default           : accept;
        }
    }
}

control BridgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BridgeIngress(inout headers_t hdr, inout meta_t meta,
                      inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action set_native_vlan(vid_t vid) {
        meta.vid = vid;
    }

    action use_tag() {
        meta.vid = hdr.vlan.vid;
    }

    table port_vlan {
        key = {
            meta.in_port         : exact;
            hdr.vlan.isValid()   : exact;
        }
        actions = { set_native_vlan; use_tag; drop; }
        default_action = drop();
    }

    action forward(port_t port, bool tagged) {
        sm.egress_spec = (bit<9>)port;
        meta.egress_tagged = tagged;
    }

    action flood(bit<16> group) {
        sm.mcast_grp = group;
    }

    table fdb {
        key = {
            meta.vid    : exact;
            hdr.eth.dst : exact;
        }
        actions = { forward; flood; drop; }
        default_action = drop();
    }

    apply {
        switch (sm.parser_error) {
            error.NoError: { }
            error.PacketTooShort: {
                drop();
                return;
            }
            default: {
                drop();
                return;
            }
        }
        port_vlan.apply();
        fdb.apply();
        // Rewrite the tag state to what the output port expects.
        if (meta.egress_tagged && !hdr.vlan.isValid()) {
            hdr.vlan.setValid();
            hdr.vlan.pcp = 0;
            hdr.vlan.dei = 0;
            hdr.vlan.vid = meta.vid;
            hdr.vlan.etype = hdr.eth.etype;
            hdr.eth.etype = ether_type_t.VLAN;
        } else if (!meta.egress_tagged && hdr.vlan.isValid()) {
            hdr.eth.etype = hdr.vlan.etype;
            hdr.vlan.setInvalid();
        }
    }
}

control BridgeEgress(inout headers_t hdr, inout meta_t meta,
                     inout standard_metadata_t sm) {
    apply {
        if ((port_t)sm.egress_port == meta.in_port) {
            mark_to_drop(sm);
        }
    }
}

control BridgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BridgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.vlan);
    }
}

V1Switch(BridgeParser(), BridgeVerify(), BridgeIngress(), BridgeEgress(),
         BridgeCompute(), BridgeDeparser()) main;
