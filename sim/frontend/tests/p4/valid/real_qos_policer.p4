#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header qos_t {
    bit<8>  port_color;
    bit<8>  flow_color;
    bit<16> class_id;
}

struct headers {
    ethernet_t ethernet;
    qos_t      qos;
}

struct metadata {
    bit<32> port_color;
    bit<2>  flow_color;
    bit<16> class_id;
}

parser QosParser(packet_in packet, out headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88B5: parse_qos;
            default: accept;
        }
    }
    state parse_qos {
        packet.extract(hdr.qos);
        transition accept;
    }
}

control QosVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control QosIngress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    meter(32w8, MeterType.packets) port_meter;
    direct_meter<bit<2>>(MeterType.packets) flow_meter;
    counter(32w8, CounterType.packets_and_bytes) port_pkts;
    direct_counter(CounterType.packets) class_hits;

    action classify(bit<16> class_id) {
        flow_meter.read(meta.flow_color);
        meta.class_id = class_id;
    }
    action unclassified() {
        flow_meter.read(meta.flow_color);
        meta.class_id = 0xffff;
    }
    table flow_class {
        key = {
            hdr.ethernet.srcAddr: exact;
        }
        actions = {
            classify;
            unclassified;
        }
        default_action = unclassified();
        meters = flow_meter;
    }

    action count_class() {
        class_hits.count();
    }
    table class_stats {
        key = {
            meta.class_id: exact;
        }
        actions = {
            count_class;
            NoAction;
        }
        default_action = NoAction();
        counters = class_hits;
    }

    apply {
        port_pkts.count((bit<32>)standard_metadata.ingress_port);
        port_meter.execute_meter((bit<32>)standard_metadata.ingress_port,
                                 meta.port_color);
        flow_class.apply();
        class_stats.apply();
        if (hdr.qos.isValid()) {
            hdr.qos.port_color = (bit<8>)meta.port_color;
            hdr.qos.flow_color = (bit<8>)meta.flow_color;
            hdr.qos.class_id = meta.class_id;
        }
        if (meta.port_color == 2) {
            mark_to_drop(standard_metadata);
        } else {
            standard_metadata.egress_spec = 4;
        }
    }
}

control QosEgress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control QosCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control QosDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.qos);
    }
}

V1Switch(QosParser(), QosVerify(), QosIngress(), QosEgress(), QosCompute(),
         QosDeparser()) main;
