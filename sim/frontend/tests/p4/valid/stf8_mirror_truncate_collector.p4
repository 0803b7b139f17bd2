// Mirror-to-collector: ingress forwards by a port table and mirrors every
// IPv4 packet (I2E clone, session 7 -> collector port). In egress the clone
// (instance_type 1) calls truncate(64), so the collector gets the first 64
// bytes; the original, which never calls truncate, leaves whole. In
// simple_switch truncation applies to the packet that called it only.
// Short packets (under 64 bytes) reach the collector whole.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}

struct headers_t { ethernet_t eth; ipv4_t ipv4; }
struct meta_t { }

const bit<32> COLLECTOR_SESSION = 7;

parser MtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}

control MtVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control MtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action fwd(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table l2 {
        key = { hdr.eth.dst : exact; }
        actions = { fwd; drop; }
        default_action = drop();
    }
    apply {
        l2.apply();
        if (hdr.ipv4.isValid()) {
            clone(CloneType.I2E, COLLECTOR_SESSION);
        }
    }
}

control MtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) {
            truncate(64);
        }
    }
}

control MtCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MtDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.ipv4); }
}

V1Switch(MtParser(), MtVerify(), MtIngress(), MtEgress(), MtCompute(),
         MtDeparser()) main;
