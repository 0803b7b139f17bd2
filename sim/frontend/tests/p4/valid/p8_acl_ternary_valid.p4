// Shape of a P4_14 ACL after p4c's translation: ternary keys with
// priorities, validity keys named `x.$valid$`, `if (t.apply().hit)`,
// an action with many parameters, a constant drop reason.
#include <core.p4>
#include <v1model.p4>

struct acl_metadata_t {
    bit<1>  acl_deny;
    bit<1>  acl_copy;
    bit<16> acl_stats_index;
    bit<8>  drop_reason;
    bit<3>  qos_class;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
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

header tcp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<32> seqNo;
    bit<32> ackNo;
    bit<4>  dataOffset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgentPtr;
}

header acl_result_t {
    bit<8>  drop_reason;
    bit<8>  qos;
    bit<16> stats_index;
}

struct metadata {
    @name(".acl_metadata")
    acl_metadata_t acl_metadata;
}

struct headers {
    @name(".acl_result")
    acl_result_t acl_result;
    @name(".ethernet")
    ethernet_t   ethernet;
    @name(".ipv4")
    ipv4_t       ipv4;
    @name(".tcp")
    tcp_t        tcp;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".parse_ethernet") state parse_ethernet {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            16w0x800: parse_ipv4;
            default: accept;
        }
    }
    @name(".parse_ipv4") state parse_ipv4 {
        packet.extract<ipv4_t>(hdr.ipv4);
        transition select(hdr.ipv4.fragOffset, hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (13w0x0, 4w0x5, 8w0x6): parse_tcp;
            default: accept;
        }
    }
    @name(".parse_tcp") state parse_tcp {
        packet.extract<tcp_t>(hdr.tcp);
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
    @name(".acl_deny") action acl_deny(bit<16> acl_stats_index, bit<8> drop_reason) {
        meta.acl_metadata.acl_deny = 1w1;
        meta.acl_metadata.acl_stats_index = acl_stats_index;
        meta.acl_metadata.drop_reason = drop_reason;
    }
    @name(".acl_permit") action acl_permit(bit<16> acl_stats_index, bit<3> qos_class, bit<1> acl_copy, bit<9> port) {
        meta.acl_metadata.acl_stats_index = acl_stats_index;
        meta.acl_metadata.qos_class = qos_class;
        meta.acl_metadata.acl_copy = acl_copy;
        standard_metadata.egress_spec = port;
    }
    @name(".ip_acl") table ip_acl {
        actions = {
            acl_deny();
            acl_permit();
            @defaultonly NoAction_0();
        }
        key = {
            hdr.ipv4.srcAddr    : ternary @name("ipv4.srcAddr");
            hdr.ipv4.dstAddr    : ternary @name("ipv4.dstAddr");
            hdr.ipv4.protocol   : ternary @name("ipv4.protocol");
            hdr.tcp.isValid()   : exact @name("tcp.$valid$");
            hdr.tcp.dstPort     : ternary @name("tcp.dstPort");
            hdr.tcp.flags       : ternary @name("tcp.flags");
        }
        size = 512;
        default_action = NoAction_0();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            if (ip_acl.apply().hit) {
                hdr.acl_result.setValid();
                hdr.acl_result.stats_index = meta.acl_metadata.acl_stats_index;
                hdr.acl_result.qos = (bit<8>)meta.acl_metadata.qos_class | (bit<8>)meta.acl_metadata.acl_copy << 7;
                if (meta.acl_metadata.acl_deny == 1w1) {
                    hdr.acl_result.drop_reason = meta.acl_metadata.drop_reason;
                    standard_metadata.egress_spec = 9w15;
                }
            }
        }
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit<acl_result_t>(hdr.acl_result);
        packet.emit<ethernet_t>(hdr.ethernet);
        packet.emit<ipv4_t>(hdr.ipv4);
        packet.emit<tcp_t>(hdr.tcp);
    }
}

control verifyChecksum(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control computeChecksum(inout headers hdr, inout metadata meta) {
    apply {
    }
}

V1Switch<headers, metadata>(ParserImpl(), verifyChecksum(), ingress(), egress(), computeChecksum(), DeparserImpl()) main;
