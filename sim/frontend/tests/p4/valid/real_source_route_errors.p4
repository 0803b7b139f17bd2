#include <core.p4>
#include <v1model.p4>

const bit<16> TYPE_SRCROUTING = 0x1234;
const bit<16> TYPE_IPV4 = 0x0800;
#define MAX_HOPS 3

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header srcRoute_t {
    bit<1>  bos;
    bit<15> port;
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

header error_report_t {
    bit<8> code;
    bit<8> hops_valid;
}

struct metadata { }

struct headers {
    ethernet_t           ethernet;
    error_report_t       report;
    srcRoute_t[MAX_HOPS] srcRoutes;
    ipv4_t               ipv4;
}

parser SrParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            TYPE_SRCROUTING: parse_srcRouting;
            TYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_srcRouting {
        packet.extract(hdr.srcRoutes.next);
        transition select(hdr.srcRoutes.last.bos) {
            1: parse_ipv4;
            default: parse_srcRouting;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control SrVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control SrIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }
    action srcRoute_nhop() {
        standard_metadata.egress_spec = (bit<9>)hdr.srcRoutes[0].port;
        hdr.srcRoutes.pop_front(1);
    }
    action srcRoute_finish() {
        hdr.ethernet.etherType = TYPE_IPV4;
    }
    action update_ttl() {
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    action report(bit<8> code) {
        hdr.report.setValid();
        hdr.report.code = code;
        hdr.report.hops_valid = (hdr.srcRoutes[0].isValid() ? 8w1 : 8w0)
                              + (hdr.srcRoutes[1].isValid() ? 8w1 : 8w0)
                              + (hdr.srcRoutes[2].isValid() ? 8w1 : 8w0);
        standard_metadata.egress_spec = 100;
    }

    apply {
        if (standard_metadata.parser_error == error.StackOutOfBounds) {
            report(1);
        } else if (standard_metadata.parser_error == error.PacketTooShort) {
            report(2);
        } else if (hdr.srcRoutes[0].isValid()) {
            if (hdr.srcRoutes[0].bos == 1) {
                srcRoute_finish();
            }
            srcRoute_nhop();
            if (hdr.ipv4.isValid()) {
                update_ttl();
            }
        } else {
            drop();
        }
    }
}

control SrEgress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control SrCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control SrDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.report);
        packet.emit(hdr.srcRoutes);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(SrParser(), SrVerify(), SrIngress(), SrEgress(), SrCompute(),
         SrDeparser()) main;
