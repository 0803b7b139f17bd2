#include <core.p4>
#include <v1model.p4>

const bit<32> I2E_SESSION = 100;
const bit<32> E2E_SESSION = 101;

const bit<32> PKT_NORMAL = 0;
const bit<32> PKT_RESUBMIT = 6;
const bit<32> PKT_RECIRC = 4;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header report_t {
    bit<8>  instance_type;
    bit<8>  pass_no;
    bit<16> orig_port;
    bit<32> scratch;
}

struct headers {
    ethernet_t ethernet;
    report_t   report;
}

struct metadata {
    @field_list(1)
    bit<8>  pass_no;
    @field_list(1, 2)
    bit<16> orig_port;
    bit<32> scratch;
}

parser MirrorParser(packet_in packet, out headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(standard_metadata.instance_type) {
            PKT_RECIRC: parse_report;
            default: accept;
        }
    }
    state parse_report {
        packet.extract(hdr.report);
        transition accept;
    }
}

control MirrorVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control MirrorIngress(inout headers hdr, inout metadata meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_NORMAL) {
            meta.orig_port = (bit<16>)standard_metadata.ingress_port;
            meta.pass_no = 1;
            meta.scratch = 0xdead;
            standard_metadata.egress_spec = 2;
            if (hdr.ethernet.etherType == 0x9001) {
                clone_preserving_field_list(CloneType.I2E, I2E_SESSION, 2);
            } else if (hdr.ethernet.etherType == 0x9002) {
                resubmit_preserving_field_list(1);
            }
        } else if (standard_metadata.instance_type == PKT_RESUBMIT) {
            meta.pass_no = meta.pass_no + 1;
            standard_metadata.egress_spec = 3;
        } else if (standard_metadata.instance_type == PKT_RECIRC) {
            standard_metadata.egress_spec = 4;
        }
    }
}

control MirrorEgress(inout headers hdr, inout metadata meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_NORMAL) {
            if (hdr.ethernet.etherType == 0x9003) {
                clone_preserving_field_list(CloneType.E2E, E2E_SESSION, 1);
            } else if (hdr.ethernet.etherType == 0x9004 && !hdr.report.isValid()) {
                // simple_switch sends every unicast copy to egress as NORMAL,
                // a recirculated one too: the parsed report tells them apart.
                recirculate_preserving_field_list(1);
            }
        }
        hdr.report.setValid();
        hdr.report.instance_type = (bit<8>)standard_metadata.instance_type;
        hdr.report.pass_no = meta.pass_no;
        hdr.report.orig_port = meta.orig_port;
        hdr.report.scratch = meta.scratch;
    }
}

control MirrorCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control MirrorDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.report);
    }
}

V1Switch(MirrorParser(), MirrorVerify(), MirrorIngress(), MirrorEgress(),
         MirrorCompute(), MirrorDeparser()) main;
