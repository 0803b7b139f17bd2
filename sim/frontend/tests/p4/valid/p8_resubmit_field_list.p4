// Shape of a P4_14 resubmit / recirculate app after p4c's translation:
// the field lists enum, @field_list on the preserved members, a register
// counting passes, `if (t.apply().hit)` and intrinsic instance types.
#include <core.p4>
#include <v1model.p4>

enum bit<8> FieldLists {
    none = 8w0,
    resubmit_FL = 8w1,
    recirc_FL = 8w2
}

struct mymeta_t {
    @field_list(FieldLists.resubmit_FL)
    bit<8> resubmit_count;
    @field_list(FieldLists.resubmit_FL, FieldLists.recirc_FL)
    bit<8> recirc_count;
    bit<8> f_lost;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header trace_t {
    bit<8> resubmit_count;
    bit<8> recirc_count;
    bit<8> f_lost;
    bit<8> passes;
}

struct metadata {
    @name(".mymeta")
    mymeta_t mymeta;
}

struct headers {
    @name(".ethernet")
    ethernet_t ethernet;
    @name(".trace")
    trace_t    trace;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".parse_trace") state parse_trace {
        packet.extract<trace_t>(hdr.trace);
        transition accept;
    }
    @name(".start") state start {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            16w0x9000: parse_trace;
            default: accept;
        }
    }
}

control egress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_0() {
    }
    @name(".do_recirculate") action do_recirculate() {
        meta.mymeta.recirc_count = meta.mymeta.recirc_count + 8w1;
        meta.mymeta.f_lost = 8w0xee;
        recirculate_preserving_field_list((bit<8>)FieldLists.recirc_FL);
    }
    @name(".t_recirc") table t_recirc {
        actions = {
            do_recirculate();
            @defaultonly NoAction_0();
        }
        key = {
            meta.mymeta.recirc_count: exact @name("mymeta.recirc_count");
        }
        size = 4;
        default_action = NoAction_0();
    }
    apply {
        if (hdr.trace.isValid()) {
            if (!t_recirc.apply().hit) {
                hdr.trace.recirc_count = meta.mymeta.recirc_count;
            }
        }
    }
}

control ingress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".passes") register<bit<8>>(32w4) passes;
    @name(".NoAction") action NoAction_1() {
    }
    @name(".do_resubmit") action do_resubmit() {
        meta.mymeta.resubmit_count = meta.mymeta.resubmit_count + 8w1;
        meta.mymeta.f_lost = 8w0xdd;
        resubmit_preserving_field_list((bit<8>)FieldLists.resubmit_FL);
    }
    @name(".set_port") action set_port(bit<9> port) {
        standard_metadata.egress_spec = port;
        hdr.trace.resubmit_count = meta.mymeta.resubmit_count;
        hdr.trace.f_lost = meta.mymeta.f_lost;
    }
    @name(".t_resubmit") table t_resubmit {
        actions = {
            do_resubmit();
            set_port();
            @defaultonly NoAction_1();
        }
        key = {
            meta.mymeta.resubmit_count: exact @name("mymeta.resubmit_count");
        }
        size = 4;
        default_action = NoAction_1();
    }
    apply {
        if (hdr.trace.isValid()) {
            bit<8> tmp;
            passes.read(tmp, 32w0);
            tmp = tmp + 8w1;
            passes.write(32w0, tmp);
            hdr.trace.passes = tmp;
            t_resubmit.apply();
        }
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit<ethernet_t>(hdr.ethernet);
        packet.emit<trace_t>(hdr.trace);
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
