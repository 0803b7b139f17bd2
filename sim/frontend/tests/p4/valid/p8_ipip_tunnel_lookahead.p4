// Shape of a P4_14 tunnel app after p4c's translation: a VLAN header
// stack filled with `.next`, a select on `packet.lookahead<bit<N>>()[a:b]`
// (P4_14's current()), IPv4-in-IPv4 encap with add_header/copy_header
// turned into setValid and header assignment, decap by setInvalid, and
// the outer checksum recomputed.
#include <core.p4>
#include <v1model.p4>

struct tunnel_metadata_t {
    bit<1>  is_inner;
    bit<12> vid;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_tag_t {
    bit<3>  pcp;
    bit<1>  cfi;
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

struct metadata {
    @name(".tunnel_metadata")
    tunnel_metadata_t tunnel_metadata;
}

struct headers {
    @name(".ethernet")
    ethernet_t    ethernet;
    @name(".inner_ipv4")
    ipv4_t        inner_ipv4;
    @name(".ipv4")
    ipv4_t        ipv4;
    @name(".vlan_tag_")
    vlan_tag_t[2] vlan_tag_;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".parse_ethernet") state parse_ethernet {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            16w0x8100: parse_vlan;
            16w0x800: parse_ipv4;
            default: accept;
        }
    }
    @name(".parse_vlan") state parse_vlan {
        packet.extract<vlan_tag_t>(hdr.vlan_tag_.next);
        meta.tunnel_metadata.vid = hdr.vlan_tag_.last.vid;
        transition select(hdr.vlan_tag_.last.etherType) {
            16w0x8100: parse_vlan;
            16w0x800: parse_ipv4;
            default: accept;
        }
    }
    @name(".parse_ipv4") state parse_ipv4 {
        packet.extract<ipv4_t>(hdr.ipv4);
        transition select(hdr.ipv4.protocol, (packet.lookahead<bit<8>>())[7:4]) {
            (8w4, 4w4): parse_inner_ipv4;
            default: accept;
        }
    }
    @name(".parse_inner_ipv4") state parse_inner_ipv4 {
        meta.tunnel_metadata.is_inner = 1w1;
        packet.extract<ipv4_t>(hdr.inner_ipv4);
        transition accept;
    }
    @name(".start") state start {
        transition parse_ethernet;
    }
}

control egress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    apply {
    }
}

control ingress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_0() {
    }
    @name(".encap_ipip") action encap_ipip(bit<32> tunnel_src, bit<32> tunnel_dst, bit<9> port) {
        hdr.inner_ipv4.setValid();
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.ipv4.srcAddr = tunnel_src;
        hdr.ipv4.dstAddr = tunnel_dst;
        hdr.ipv4.protocol = 8w4;
        hdr.ipv4.ttl = 8w64;
        hdr.ipv4.totalLen = hdr.inner_ipv4.totalLen + 16w20;
        standard_metadata.egress_spec = port;
    }
    @name(".decap_ipip") action decap_ipip(bit<9> port) {
        hdr.ipv4 = hdr.inner_ipv4;
        hdr.inner_ipv4.setInvalid();
        hdr.vlan_tag_.pop_front(1);
        hdr.ethernet.etherType = 16w0x800;
        standard_metadata.egress_spec = port;
    }
    @name(".tunnel") table tunnel {
        actions = {
            encap_ipip();
            decap_ipip();
            @defaultonly NoAction_0();
        }
        key = {
            meta.tunnel_metadata.is_inner: exact @name("tunnel_metadata.is_inner");
            meta.tunnel_metadata.vid     : exact @name("tunnel_metadata.vid");
            hdr.ipv4.dstAddr             : lpm @name("ipv4.dstAddr");
        }
        size = 1024;
        default_action = NoAction_0();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            tunnel.apply();
        }
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit<ethernet_t>(hdr.ethernet);
        packet.emit<vlan_tag_t[2]>(hdr.vlan_tag_);
        packet.emit<ipv4_t>(hdr.ipv4);
        packet.emit<ipv4_t>(hdr.inner_ipv4);
    }
}

control verifyChecksum(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control computeChecksum(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum<tuple<bit<4>, bit<4>, bit<8>, bit<16>, bit<16>, bit<3>, bit<13>, bit<8>, bit<8>, bit<32>, bit<32>>, bit<16>>(hdr.ipv4.isValid(), { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen, hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr }, hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

V1Switch<headers, metadata>(ParserImpl(), verifyChecksum(), ingress(), egress(), computeChecksum(), DeparserImpl()) main;
