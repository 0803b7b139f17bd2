// v1model program written against the default (20180101) v1model surface:
// `register<T>` with one type argument, `counter` and `meter` with no type
// parameter, all indexed by bit<32> values.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    ethernet_t eth;
}

struct meta_t {
    bit<32> port_index;
    bit<32> seen;
    bit<2>  color;
}

parser LegacyParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control LegacyVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LegacyIngress(inout headers_t hdr, inout meta_t meta,
                      inout standard_metadata_t sm) {
    register<bit<32>>(32w512) packets_seen;
    counter(32w512, CounterType.packets_and_bytes) port_counter;
    meter(32w512, MeterType.packets) port_meter;

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table l2 {
        key = { hdr.eth.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        meta.port_index = (bit<32>)sm.ingress_port;
        port_counter.count(meta.port_index);
        port_meter.execute_meter(meta.port_index, meta.color);
        packets_seen.read(meta.seen, meta.port_index);
        packets_seen.write(meta.port_index, meta.seen + 1);
        if (meta.color == 2) {
            drop();
        } else {
            l2.apply();
        }
    }
}

control LegacyEgress(inout headers_t hdr, inout meta_t meta,
                     inout standard_metadata_t sm) {
    apply { }
}

control LegacyCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LegacyDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
    }
}

V1Switch(LegacyParser(), LegacyVerify(), LegacyIngress(), LegacyEgress(),
         LegacyCompute(), LegacyDeparser()) main;
