// Shape of a P4_14 statistics app after p4c's translation: an indexed
// counter counted from an action parameter, a direct counter whose
// table's actions call count(), a byte meter left unconfigured (GREEN),
// @min_width passed through.
#include <core.p4>
#include <v1model.p4>

struct stats_metadata_t {
    bit<8>  color;
    bit<16> stats_idx;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

struct metadata {
    @name(".stats_metadata")
    stats_metadata_t stats_metadata;
}

struct headers {
    @name(".ethernet")
    ethernet_t ethernet;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".start") state start {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition accept;
    }
}

control egress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    apply {
    }
}

control ingress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".port_bytes") @min_width(32) counter(32w1024, CounterType.packets_and_bytes) port_bytes;
    @name(".flow_stats") direct_counter(CounterType.packets) flow_stats;
    @name(".port_meter") meter(32w64, MeterType.bytes) port_meter;
    @name(".NoAction") action NoAction_0() {
        flow_stats.count();
    }
    @name(".count_and_forward") action count_and_forward(bit<16> idx, bit<9> port) {
        flow_stats.count();
        meta.stats_metadata.stats_idx = idx;
        port_bytes.count((bit<32>)idx);
        port_meter.execute_meter<bit<8>>((bit<32>)standard_metadata.ingress_port, meta.stats_metadata.color);
        standard_metadata.egress_spec = port;
    }
    @name("._drop") action _drop() {
        flow_stats.count();
        mark_to_drop(standard_metadata);
    }
    @name(".flow") table flow {
        actions = {
            count_and_forward();
            _drop();
            @defaultonly NoAction_0();
        }
        key = {
            hdr.ethernet.dstAddr: exact @name("ethernet.dstAddr");
        }
        size = 256;
        counters = flow_stats;
        default_action = NoAction_0();
    }
    apply {
        flow.apply();
        hdr.ethernet.etherType = meta.stats_metadata.color ++ 8w0 | meta.stats_metadata.stats_idx;
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit<ethernet_t>(hdr.ethernet);
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
