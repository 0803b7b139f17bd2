// Shape of a P4_14 mirroring app after p4c's translation: field lists
// become a serializable enum and @field_list annotations on metadata
// members; clone_ingress_pkt_to_egress becomes
// clone_preserving_field_list(I2E, ...), clone_egress_pkt_to_egress the
// E2E form; egress tells copies apart by instance_type and pushes a
// mirror header on them.
#include <core.p4>
#include <v1model.p4>

enum bit<8> FieldLists {
    none = 8w0,
    i2e_mirror_info = 8w1,
    e2e_mirror_info = 8w2
}

struct mirror_metadata_t {
    @field_list(FieldLists.i2e_mirror_info, FieldLists.e2e_mirror_info)
    bit<16> session_tag;
    @field_list(FieldLists.i2e_mirror_info)
    bit<9>  orig_port;
    bit<8>  scratch;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header mirror_hdr_t {
    bit<16> session_tag;
    bit<7>  pad;
    bit<9>  orig_port;
    bit<8>  instance_type;
    bit<8>  scratch;
}

struct metadata {
    @name(".mirror_metadata")
    mirror_metadata_t mirror_metadata;
}

struct headers {
    @name(".mirror_hdr")
    mirror_hdr_t mirror_hdr;
    @name(".ethernet")
    ethernet_t   ethernet;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".start") state start {
        packet.extract<ethernet_t>(hdr.ethernet);
        transition accept;
    }
}

control egress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_0() {
    }
    @name(".add_mirror_hdr") action add_mirror_hdr() {
        hdr.mirror_hdr.setValid();
        hdr.mirror_hdr.session_tag = meta.mirror_metadata.session_tag;
        hdr.mirror_hdr.pad = 7w0;
        hdr.mirror_hdr.orig_port = meta.mirror_metadata.orig_port;
        hdr.mirror_hdr.instance_type = (bit<8>)standard_metadata.instance_type;
        hdr.mirror_hdr.scratch = meta.mirror_metadata.scratch;
    }
    @name(".e2e_copy") action e2e_copy(bit<32> session) {
        meta.mirror_metadata.session_tag = 16w0xe2e;
        clone_preserving_field_list(CloneType.E2E, session, (bit<8>)FieldLists.e2e_mirror_info);
    }
    @name(".mirror_rewrite") table mirror_rewrite {
        actions = {
            add_mirror_hdr();
            e2e_copy();
            @defaultonly NoAction_0();
        }
        key = {
            standard_metadata.instance_type: exact @name("standard_metadata.instance_type");
            standard_metadata.egress_port  : exact @name("standard_metadata.egress_port");
        }
        size = 16;
        default_action = NoAction_0();
    }
    apply {
        mirror_rewrite.apply();
    }
}

control ingress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    @name(".NoAction") action NoAction_1() {
    }
    @name(".mirror_and_forward") action mirror_and_forward(bit<32> session, bit<16> tag, bit<9> port) {
        meta.mirror_metadata.session_tag = tag;
        meta.mirror_metadata.orig_port = standard_metadata.ingress_port;
        meta.mirror_metadata.scratch = 8w0x77;
        standard_metadata.egress_spec = port;
        clone_preserving_field_list(CloneType.I2E, session, (bit<8>)FieldLists.i2e_mirror_info);
    }
    @name(".forward") action forward(bit<9> port) {
        meta.mirror_metadata.scratch = 8w0x55;
        standard_metadata.egress_spec = port;
    }
    @name(".mirror_acl") table mirror_acl {
        actions = {
            mirror_and_forward();
            forward();
            @defaultonly NoAction_1();
        }
        key = {
            hdr.ethernet.etherType: exact @name("ethernet.etherType");
        }
        size = 64;
        default_action = NoAction_1();
    }
    apply {
        mirror_acl.apply();
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit<mirror_hdr_t>(hdr.mirror_hdr);
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
