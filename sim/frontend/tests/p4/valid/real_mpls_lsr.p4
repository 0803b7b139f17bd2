#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_IPV4 = 0x0800;
const bit<16> ETH_MPLS = 0x8847;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header mpls_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
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
    mpls_t[3]  mpls;
    ipv4_t     ipv4;
}

struct metadata { }

parser LsrParser(packet_in packet, out headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETH_MPLS: parse_mpls;
            ETH_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_mpls {
        packet.extract(hdr.mpls.next);
        transition select(hdr.mpls.last.bos) {
            0: parse_mpls;
            1: parse_ipv4;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control LsrVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control LsrIngress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    action push_two(bit<20> outer, bit<20> inner, bit<9> port) {
        hdr.mpls.push_front(2);
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = outer;
        hdr.mpls[0].tc = 0;
        hdr.mpls[0].bos = 0;
        hdr.mpls[0].ttl = hdr.ipv4.ttl - 1;
        hdr.mpls[1].setValid();
        hdr.mpls[1].label = inner;
        hdr.mpls[1].tc = 0;
        hdr.mpls[1].bos = 1;
        hdr.mpls[1].ttl = hdr.ipv4.ttl - 1;
        hdr.ethernet.etherType = ETH_MPLS;
        standard_metadata.egress_spec = port;
    }

    action swap(bit<20> label, bit<9> port) {
        hdr.mpls[0].label = label;
        hdr.mpls[0].ttl = hdr.mpls[0].ttl - 1;
        standard_metadata.egress_spec = port;
    }

    action pop_inner(bit<9> port) {
        hdr.mpls[1].ttl = hdr.mpls[0].ttl - 1;
        hdr.mpls.pop_front(1);
        standard_metadata.egress_spec = port;
    }

    action pop_last(bit<9> port) {
        hdr.ipv4.ttl = hdr.mpls[0].ttl - 1;
        hdr.mpls.pop_front(1);
        hdr.ethernet.etherType = ETH_IPV4;
        standard_metadata.egress_spec = port;
    }

    table fec {
        key = {
            hdr.ipv4.dstAddr: lpm;
        }
        actions = {
            push_two;
            drop;
        }
        default_action = drop();
    }

    table lfib {
        key = {
            hdr.mpls[0].label: exact;
            hdr.mpls[1].isValid(): exact @name("inner_present");
        }
        actions = {
            swap;
            pop_inner;
            pop_last;
            drop;
        }
        default_action = drop();
    }

    apply {
        if (hdr.mpls[0].isValid()) {
            lfib.apply();
        } else if (hdr.ipv4.isValid()) {
            fec.apply();
        } else {
            drop();
        }
    }
}

control LsrEgress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control LsrCompute(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.totalLen, hdr.ipv4.identification,
              hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control LsrDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.mpls);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(LsrParser(), LsrVerify(), LsrIngress(), LsrEgress(),
         LsrCompute(), LsrDeparser()) main;
