#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers {
    ethernet_t ethernet;
    vlan_t[2]  vlans;
    ipv4_t     ipv4;
}

struct metadata {
    bit<12> bd;
    bit<1>  deny;
}

parser QinqParser(packet_in packet, out headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88A8: parse_vlan;
            0x8100: parse_vlan;
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_vlan {
        packet.extract(hdr.vlans.next);
        transition select(hdr.vlans.last.etherType) {
            0x8100: parse_vlan;
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control QinqVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control Acl(in bit<32> acl_key, inout bit<1> deny) {
    @name("permit") action allow() {
        deny = 0;
    }
    action deny_pkt() {
        deny = 1;
    }
    @name("rules") table acl {
        key = {
            acl_key: ternary;
        }
        actions = {
            allow;
            deny_pkt;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }
    apply {
        acl.apply();
    }
}

control QinqIngress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    Acl() src_acl;
    Acl() dst_acl;

    @name("set_bd") action set_bridge_domain(@name("bd") bit<12> bridge_domain) {
        meta.bd = bridge_domain;
    }
    action drop_unknown() {
        mark_to_drop(standard_metadata);
        exit;
    }
    @name("port_vlan_map") table vlan_map {
        key = {
            hdr.vlans[0].vid: exact;
            hdr.vlans[1].vid: exact;
            hdr.vlans[1].isValid(): exact @name("has_inner");
        }
        actions = {
            set_bridge_domain;
            @defaultonly drop_unknown;
        }
        const default_action = drop_unknown();
    }

    action forward_untag(bit<9> port) {
        hdr.ethernet.etherType = hdr.vlans[0].etherType;
        hdr.vlans.pop_front(1);
        standard_metadata.egress_spec = port;
    }
    action forward_tagged(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    table bd_fwd {
        key = {
            meta.bd: exact;
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            forward_untag;
            forward_tagged;
            @defaultonly NoAction;
        }
        default_action = NoAction();
    }

    apply {
        if (!hdr.vlans[0].isValid()) {
            mark_to_drop(standard_metadata);
            return;
        }
        vlan_map.apply();
        if (hdr.ipv4.isValid()) {
            src_acl.apply(hdr.ipv4.srcAddr, meta.deny);
            dst_acl.apply(hdr.ipv4.dstAddr, meta.deny);
        }
        if (meta.deny == 1) {
            mark_to_drop(standard_metadata);
        } else if (!bd_fwd.apply().hit) {
            mark_to_drop(standard_metadata);
        }
    }
}

control QinqEgress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control QinqCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control QinqDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlans);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(QinqParser(), QinqVerify(), QinqIngress(), QinqEgress(),
         QinqCompute(), QinqDeparser()) main;
