// Realistic PSA program: a learning Ethernet bridge.
// * Unknown source MACs are reported to the control plane with a Digest
//   from the ingress deparser (at most one pack() per packet).
// * Unknown destinations are flooded with multicast() to the bridge
//   domain's group; each copy gets its own egress port and instance from
//   the PRE, and egress drops the copy that would go back out of the port
//   the packet came in on (the ingress port is bridged in normal_meta).
// * Learned entries age out: the table asks for idle-timeout notifications
//   (psa_idle_timeout = NOTIFY_CONTROL).
#include <core.p4>
#include <psa.p4>

typedef bit<48> mac_t;

header ethernet_h { mac_t dst; mac_t src; bit<16> ether_type; }
header vlan_h     { bit<3> pcp; bit<1> dei; bit<12> vid; bit<16> ether_type; }

struct headers_t { ethernet_h ethernet; vlan_h vlan; }

struct learn_digest_t {
    mac_t    src_mac;
    bit<12>  vid;
    PortId_t ingress_port;
}

struct bridged_t { PortId_t ingress_port; }

struct meta_t {
    bit<12>        vid;
    bool           learn;
    learn_digest_t digest;
    PortId_t       ingress_port;
}
struct empty_t {}

parser BridgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                    in psa_ingress_parser_input_metadata_t istd,
                    in empty_t resubmit_meta, in empty_t recirculate_meta) {
    state start {
        meta.learn = false;
        meta.ingress_port = istd.ingress_port;
        meta.vid = 1;                      // untagged frames belong to VLAN 1
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x8100: parse_vlan;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        meta.vid = hdr.vlan.vid;
        transition accept;
    }
}

control BridgeIngress(inout headers_t hdr, inout meta_t meta,
                      in psa_ingress_input_metadata_t istd,
                      inout psa_ingress_output_metadata_t ostd) {
    action source_known() {}
    action source_unknown() {
        meta.learn = true;
        meta.digest.src_mac = hdr.ethernet.src;
        meta.digest.vid = meta.vid;
        meta.digest.ingress_port = istd.ingress_port;
    }
    table smac {
        key = { meta.vid : exact; hdr.ethernet.src : exact; }
        actions = { source_known; source_unknown; }
        default_action = source_unknown();
        psa_idle_timeout = PSA_IdleTimeout_t.NOTIFY_CONTROL;
        size = 8192;
    }

    action forward(PortId_t port) { send_to_port(ostd, port); }
    action flood(MulticastGroup_t group) { multicast(ostd, group); }
    action discard() { ingress_drop(ostd); }
    table dmac {
        key = { meta.vid : exact; hdr.ethernet.dst : exact; }
        actions = { forward; discard; }
        default_action = discard();
        size = 8192;
    }
    table vlan_flood_group {
        key = { meta.vid : exact; }
        actions = { flood; discard; }
        default_action = discard();
    }

    apply {
        smac.apply();
        if (!dmac.apply().hit) {
            vlan_flood_group.apply();
        }
    }
}

control BridgeIngressDeparser(packet_out pkt, out empty_t clone_i2e_meta,
                              out empty_t resubmit_meta, out bridged_t normal_meta,
                              inout headers_t hdr, in meta_t meta,
                              in psa_ingress_output_metadata_t istd) {
    Digest<learn_digest_t>() learn_digest;
    apply {
        if (meta.learn) {
            learn_digest.pack(meta.digest);
        }
        if (psa_normal(istd)) {
            normal_meta.ingress_port = meta.ingress_port;
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlan);
    }
}

parser BridgeEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                          in psa_egress_parser_input_metadata_t istd,
                          in bridged_t normal_meta, in empty_t clone_i2e_meta,
                          in empty_t clone_e2e_meta) {
    state start {
        meta.learn = false;
        meta.ingress_port = normal_meta.ingress_port;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x8100: parse_vlan;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition accept;
    }
}

control BridgeEgress(inout headers_t hdr, inout meta_t meta,
                     in psa_egress_input_metadata_t istd,
                     inout psa_egress_output_metadata_t ostd) {
    // Per-copy tagging: the control plane configures, for each
    // (egress port, instance) pair of a flood group, whether to strip the tag.
    action strip_tag() {
        hdr.ethernet.ether_type = hdr.vlan.ether_type;
        hdr.vlan.setInvalid();
    }
    table port_tagging {
        key = { istd.egress_port : exact; istd.instance : exact; }
        actions = { strip_tag; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (istd.packet_path == PSA_PacketPath_t.NORMAL_MULTICAST
            && istd.egress_port == meta.ingress_port) {
            egress_drop(ostd);        // never flood back out of the source port
        } else if (hdr.vlan.isValid()) {
            port_tagging.apply();
        }
    }
}

control BridgeEgressDeparser(packet_out pkt, out empty_t clone_e2e_meta,
                             out empty_t recirculate_meta, inout headers_t hdr,
                             in meta_t meta, in psa_egress_output_metadata_t istd,
                             in psa_egress_deparser_input_metadata_t edstd) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlan);
    }
}

IngressPipeline(BridgeParser(), BridgeIngress(), BridgeIngressDeparser()) ip;
EgressPipeline(BridgeEgressParser(), BridgeEgress(), BridgeEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
