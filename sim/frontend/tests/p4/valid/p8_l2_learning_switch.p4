// Shape of a P4_14 L2 learning switch after p4c's translation: a learning
// digest built from a field list, pragmas passed through as annotations,
// flooding by multicast group with egress source pruning.
#include <core.p4>
#include <v1model.p4>

struct ingress_metadata_t {
    bit<9>  ingress_port;
    bit<16> flood_grp;
    bit<1>  learn;
}

struct intrinsic_metadata_t {
    bit<48> ingress_global_timestamp;
    bit<16> mcast_grp;
    bit<16> egress_rid;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

struct mac_learn_digest {
    bit<48> srcAddr;
    bit<9>  ingress_port;
}

struct metadata {
    @pa_solitary("ingress", "ingress_metadata.learn") @name(".ingress_metadata")
    ingress_metadata_t   ingress_metadata;
    @name(".intrinsic_metadata")
    intrinsic_metadata_t intrinsic_metadata;
}

struct headers {
    @name(".ethernet")
    ethernet_t ethernet;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".parse_ethernet") state parse_ethernet {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition accept;
    }
    @name(".start") state start {
        meta.ingress_metadata.ingress_port = standard_metadata.ingress_port;
        transition parse_ethernet;
    }
}

@name(".mac_learn_digest") struct mac_learn_digest_0 {
    bit<48> srcAddr;
    bit<9>  ingress_port;
}

control egress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_0() {
    }
    @name("._drop") action _drop() {
        mark_to_drop(standard_metadata);
    }
    @name(".mcast_src_pruning") table mcast_src_pruning {
        actions = {
            _drop();
            @defaultonly NoAction_0();
        }
        key = {
            standard_metadata.instance_type: exact @name("standard_metadata.instance_type");
        }
        size = 1;
        default_action = NoAction_0();
    }
    apply {
        if (standard_metadata.ingress_port == standard_metadata.egress_port) {
            mcast_src_pruning.apply();
        }
    }
}

control ingress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_1() {
    }
    @name(".nop") action nop() {
    }
    @name(".nop") action nop_2() {
    }
    @name(".generate_learn_notify") action generate_learn_notify() {
        digest<mac_learn_digest_0>(32w1024, { hdr.ethernet.srcAddr, meta.ingress_metadata.ingress_port });
        meta.ingress_metadata.learn = 1w1;
    }
    @name(".forward") action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    @name(".broadcast") action broadcast() {
        meta.intrinsic_metadata.mcast_grp = meta.ingress_metadata.flood_grp;
        standard_metadata.mcast_grp = meta.intrinsic_metadata.mcast_grp;
    }
    @name("._drop") action _drop_0() {
        mark_to_drop(standard_metadata);
    }
    @name(".set_flood_grp") action set_flood_grp(bit<16> grp) {
        meta.ingress_metadata.flood_grp = grp;
    }
    @name(".flood_grp") table flood_grp_0 {
        actions = {
            set_flood_grp();
            @defaultonly NoAction_1();
        }
        key = {
            standard_metadata.ingress_port: exact @name("standard_metadata.ingress_port");
        }
        size = 64;
        default_action = NoAction_1();
    }
    @name(".smac") table smac {
        actions = {
            nop();
            generate_learn_notify();
        }
        key = {
            hdr.ethernet.srcAddr: exact @name("ethernet.srcAddr");
        }
        size = 512;
        default_action = generate_learn_notify();
    }
    @name(".dmac") table dmac {
        actions = {
            forward();
            broadcast();
            _drop_0();
            nop_2();
        }
        key = {
            hdr.ethernet.dstAddr: exact @name("ethernet.dstAddr");
        }
        size = 512;
        default_action = broadcast();
    }
    apply {
        flood_grp_0.apply();
        smac.apply();
        dmac.apply();
        if (meta.ingress_metadata.learn == 1w1) {
            hdr.ethernet.etherType[15:15] = 1w1;
        }
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
