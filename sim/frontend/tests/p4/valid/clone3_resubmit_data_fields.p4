#include <core.p4>
#include <v1model.p4>

struct ingress_metadata_t {
    bit<8>  f1;
    bit<16> f2;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header rec_t {
    bit<8>  f1;
    bit<16> f2;
    bit<32> it;
    bit<32> cnt;
}

struct metadata {
    @name(".ingress_metadata")
    ingress_metadata_t ingress_metadata;
}

struct headers {
    @name(".ethernet")
    ethernet_t ethernet;
    @name(".rec")
    rec_t rec;
}

register<bit<32>>(32w4) global_cnt;

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    @name(".parse_ethernet") state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition accept;
    }
    @name(".start") state start {
        transition parse_ethernet;
    }
}

control ingress(inout headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    @name(".nop") action nop() {
    }
    @name(".do_resubmit") action do_resubmit(bit<8> v) {
        meta.ingress_metadata.f1 = v;
        meta.ingress_metadata.f2 = 16w0xbeef;
        resubmit({ meta.ingress_metadata.f1 });
    }
    @name(".do_clone") action do_clone() {
        meta.ingress_metadata.f2 = 16w0x1234;
        clone3(CloneType.I2E, (bit<32>)32w1, { meta.ingress_metadata.f2 });
        standard_metadata.egress_spec = 9w2;
    }
    @name(".set_port") action set_port(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    @name("t_ingress") table t_ingress {
        actions = {
            nop;
            do_resubmit;
            do_clone;
            @defaultonly NoAction;
        }
        key = {
            hdr.ethernet.etherType: exact;
            standard_metadata.instance_type: exact;
        }
        default_action = NoAction();
    }
    @name(".t_port") table t_port {
        actions = { set_port; }
        key = { standard_metadata.instance_type: ternary; }
        default_action = set_port(9w3);
    }
    apply {
        bit<32> c;
        global_cnt.read(c, 32w0);
        global_cnt.write(32w0, c + 32w1);
        t_ingress.apply();
        if (standard_metadata.instance_type != 0) {
            t_port.apply();
        }
    }
}

control egress(inout headers hdr, inout metadata meta,
               inout standard_metadata_t standard_metadata) {
    apply {
        bit<32> c;
        global_cnt.read(c, 32w0);
        hdr.rec.setValid();
        hdr.rec.f1 = meta.ingress_metadata.f1;
        hdr.rec.f2 = meta.ingress_metadata.f2;
        hdr.rec.it = standard_metadata.instance_type;
        hdr.rec.cnt = c;
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.rec);
    }
}

control verifyChecksum(inout headers hdr, inout metadata meta) { apply { } }
control computeChecksum(inout headers hdr, inout metadata meta) { apply { } }

V1Switch(ParserImpl(), verifyChecksum(), ingress(), egress(), computeChecksum(),
         DeparserImpl()) main;
