// An MPLS LSR with a stack of up to 3 labels (header stack mpls_t[3],
// parsed with .next until bos). A table on the top label chooses: pop
// (pop_front(1); popping the last label restores etherType IPv4), swap, or
// push (push_front(1) and fill the new top: bos 0, TTL of the old top).
// Labels decremented by one TTL on swap. push_front/pop_front per the P4_16
// spec: elements shift, the freed slot is invalid until setValid().
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header mpls_t { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }

struct headers_t { ethernet_t eth; mpls_t[3] mpls; }
struct meta_t { }

parser MpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) { 0x8847: label; default: accept; }
    }
    state label {
        pkt.extract(hdr.mpls.next);
        transition select(hdr.mpls.last.bos) { 0: label; default: accept; }
    }
}

control MpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control MpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action pop(bit<9> port) {
        hdr.mpls.pop_front(1);
        if (!hdr.mpls[0].isValid()) {
            hdr.eth.etherType = 0x0800;
        }
        sm.egress_spec = port;
    }
    action swap(bit<20> label, bit<9> port) {
        hdr.mpls[0].label = label;
        hdr.mpls[0].ttl = hdr.mpls[0].ttl - 1;
        sm.egress_spec = port;
    }
    action push(bit<20> label, bit<9> port) {
        hdr.mpls.push_front(1);
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = label;
        hdr.mpls[0].tc = hdr.mpls[1].tc;
        hdr.mpls[0].bos = 0;
        hdr.mpls[0].ttl = hdr.mpls[1].ttl;
        sm.egress_spec = port;
    }
    action drop() { mark_to_drop(sm); }
    table lfib {
        key = { hdr.mpls[0].label : exact; }
        actions = { pop; swap; push; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.mpls[0].isValid()) {
            lfib.apply();
        } else {
            mark_to_drop(sm);
        }
    }
}

control MpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control MpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.mpls); }
}

V1Switch(MpParser(), MpVerify(), MpIngress(), MpEgress(), MpCompute(),
         MpDeparser()) main;
