// Realistic v1model program: every v1model stateful extern in one pipeline —
// register, counter, meter (indirect) and direct_counter / direct_meter
// attached to tables through the `counters` and `meters` properties.
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

const bit<32> NUM_FLOWS = 1024;
const bit<2>  METER_GREEN  = 0;
const bit<2>  METER_YELLOW = 1;
const bit<2>  METER_RED    = 2;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<8>  ver_ihl;
    bit<8>  dscp;
    bit<16> len;
    bit<32> id_frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4;
}

struct meta_t {
    bit<32> flow_index;
    bit<32> byte_total;
    bit<48> last_seen;
    bit<2>  port_color;
    bit<2>  class_color;
}

parser StatefulParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                      inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control StatefulVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control StatefulIngress(inout headers_t hdr, inout meta_t meta,
                        inout standard_metadata_t sm) {

    register<bit<32>, bit<32>>(NUM_FLOWS) flow_bytes;
    register<bit<48>, bit<32>>(NUM_FLOWS) flow_last_seen;
    counter<bit<9>>(32w512, CounterType.packets_and_bytes) port_counter;
    meter<bit<9>>(32w512, MeterType.bytes) port_meter;
    direct_counter(CounterType.packets) class_hits;
    direct_meter<bit<2>>(MeterType.packets) class_meter;

    action drop() {
        mark_to_drop(sm);
    }

    action set_flow(bit<32> index) {
        meta.flow_index = index;
    }

    table flow_index {
        key = {
            hdr.ipv4.src   : exact;
            hdr.ipv4.dst   : exact;
            hdr.ipv4.proto : exact;
        }
        actions = { set_flow; NoAction; }
        default_action = set_flow(0);
    }

    action classify(bit<6> dscp) {
        class_hits.count();
        class_meter.read(meta.class_color);
        hdr.ipv4.dscp = dscp ++ 2w0;
    }

    action unclassified() {
        class_hits.count();
        class_meter.read(meta.class_color);
    }

    table traffic_class {
        key = {
            hdr.ipv4.dscp : ternary;
        }
        actions = { classify; unclassified; }
        counters = class_hits;
        meters = class_meter;
        default_action = unclassified();
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    table l3_forward {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        port_counter.count(sm.ingress_port);
        port_meter.execute_meter(sm.ingress_port, meta.port_color);
        if (meta.port_color == METER_RED) {
            drop();
            exit;
        }
        if (!hdr.ipv4.isValid()) {
            drop();
            exit;
        }

        flow_index.apply();

        // Read-modify-write of per-flow state.
        flow_bytes.read(meta.byte_total, meta.flow_index);
        meta.byte_total = meta.byte_total + sm.packet_length;
        flow_bytes.write(meta.flow_index, meta.byte_total);
        flow_last_seen.read(meta.last_seen, meta.flow_index);
        flow_last_seen.write(meta.flow_index, sm.ingress_global_timestamp);

        traffic_class.apply();
        if (meta.class_color == METER_YELLOW) {
            hdr.ipv4.dscp = 0;
        } else if (meta.class_color == METER_RED) {
            drop();
            exit;
        }
        l3_forward.apply();
    }
}

control StatefulEgress(inout headers_t hdr, inout meta_t meta,
                       inout standard_metadata_t sm) {
    counter<bit<9>>(32w512, CounterType.bytes) egress_bytes;
    apply {
        egress_bytes.count(sm.egress_port);
    }
}

control StatefulCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control StatefulDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(StatefulParser(), StatefulVerify(), StatefulIngress(),
         StatefulEgress(), StatefulCompute(), StatefulDeparser()) main;
