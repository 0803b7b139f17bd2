#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv6_t {
    bit<4>   version;
    bit<8>   trafficClass;
    bit<20>  flowLabel;
    bit<16>  payloadLen;
    bit<8>   nextHdr;
    bit<8>   hopLimit;
    bit<128> srcAddr;
    bit<128> dstAddr;
}

header icmpv6_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

struct headers {
    ethernet_t ethernet;
    ipv6_t     ipv6;
    icmpv6_t   icmpv6;
}

struct metadata { }

parser V6Parser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x86DD: parse_ipv6;
            default: accept;
        }
    }
    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        transition select(hdr.ipv6.nextHdr) {
            58: parse_icmpv6;
            default: accept;
        }
    }
    state parse_icmpv6 {
        packet.extract(hdr.icmpv6);
        transition accept;
    }
}

control V6Verify(inout headers hdr, inout metadata meta) {
    apply {
        verify_checksum_with_payload(
            hdr.icmpv6.isValid(),
            { hdr.ipv6.srcAddr, hdr.ipv6.dstAddr, (bit<32>)hdr.ipv6.payloadLen,
              24w0, hdr.ipv6.nextHdr, hdr.icmpv6.type, hdr.icmpv6.code },
            hdr.icmpv6.checksum,
            HashAlgorithm.csum16);
    }
}

control V6Ingress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    action echo_reply(bit<48> my_mac) {
        bit<128> peer = hdr.ipv6.srcAddr;
        hdr.ipv6.srcAddr = hdr.ipv6.dstAddr;
        hdr.ipv6.dstAddr = peer;
        hdr.ipv6.hopLimit = 64;
        hdr.ethernet.dstAddr = hdr.ethernet.srcAddr;
        hdr.ethernet.srcAddr = my_mac;
        hdr.icmpv6.type = 129;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    table local_addr {
        key = {
            hdr.ipv6.dstAddr: exact;
        }
        actions = {
            echo_reply;
            NoAction;
        }
        default_action = NoAction();
    }

    action route(bit<48> dmac, bit<9> port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dmac;
        hdr.ipv6.hopLimit = hdr.ipv6.hopLimit - 1;
        standard_metadata.egress_spec = port;
    }

    table v6_routes {
        key = {
            hdr.ipv6.dstAddr: lpm;
        }
        actions = {
            route;
            drop;
        }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv6.isValid() || standard_metadata.checksum_error == 1) {
            drop();
            return;
        }
        if (hdr.icmpv6.isValid() && hdr.icmpv6.type == 128) {
            if (local_addr.apply().hit) {
                return;
            }
        }
        if (hdr.ipv6.hopLimit <= 1) {
            drop();
        } else {
            v6_routes.apply();
        }
    }
}

control V6Egress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control V6Compute(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum_with_payload(
            hdr.icmpv6.isValid(),
            { hdr.ipv6.srcAddr, hdr.ipv6.dstAddr, (bit<32>)hdr.ipv6.payloadLen,
              24w0, hdr.ipv6.nextHdr, hdr.icmpv6.type, hdr.icmpv6.code },
            hdr.icmpv6.checksum,
            HashAlgorithm.csum16);
    }
}

control V6Deparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv6);
        packet.emit(hdr.icmpv6);
    }
}

V1Switch(V6Parser(), V6Verify(), V6Ingress(), V6Egress(), V6Compute(),
         V6Deparser()) main;
