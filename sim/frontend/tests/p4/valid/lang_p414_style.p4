// The shape of programs translated from P4_14: global actions (declared
// outside any control, writing only their parameters), @name(".x") global
// control-plane names, the same global action listed by two tables,
// metadata structs nested in the user metadata, a register instantiated at
// top level, a constant declared inside a control, @defaultonly NoAction.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dstAddr; bit<48> srcAddr; bit<16> etherType; }
struct ingress_metadata_t { bit<8> cls; bit<9> port; }
struct metadata { @name(".ing_metadata") ingress_metadata_t ing_metadata; }
struct headers { @name(".ethernet") ethernet_t ethernet; }

@name(".seen") register<bit<8>>(4) seen;

@name(".nop") action nop() { }
@name(".set_port") action set_port(inout standard_metadata_t standard_metadata, bit<9> port) {
    standard_metadata.egress_spec = port;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    @name(".start") state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

control verifyChecksum(inout headers hdr, inout metadata meta) { apply { } }

control ingress(inout headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    const bit<8> CLASS_BCAST = 8w2;
    @name(".classify") action classify(bit<8> cls) { meta.ing_metadata.cls = cls; }
    @name(".forward") action forward(bit<9> port) {
        meta.ing_metadata.port = port;
        set_port(standard_metadata, port);
    }
    @name(".t_class") table t_class {
        actions = { classify; nop; @defaultonly NoAction; }
        key = { hdr.ethernet.dstAddr: ternary; }
        default_action = NoAction();
    }
    @name(".t_fwd") table t_fwd {
        actions = { forward; nop; }
        key = { meta.ing_metadata.cls: exact; }
        default_action = nop();
    }
    apply {
        t_class.apply();
        t_fwd.apply();
        bit<8> count;
        seen.read(count, (bit<32>)meta.ing_metadata.cls);
        count = count + 1;
        seen.write((bit<32>)meta.ing_metadata.cls, count);
        if (meta.ing_metadata.cls == CLASS_BCAST) {
            hdr.ethernet.srcAddr[7:0] = count;
        }
    }
}

control egress(inout headers hdr, inout metadata meta,
               inout standard_metadata_t standard_metadata) { apply { } }
control computeChecksum(inout headers hdr, inout metadata meta) { apply { } }
control DeparserImpl(packet_out packet, in headers hdr) {
    apply { packet.emit(hdr.ethernet); }
}

V1Switch(ParserImpl(), verifyChecksum(), ingress(), egress(),
         computeChecksum(), DeparserImpl()) main;
