// bmv2 truncate and multicast: truncate(n) sets a length on the Packet
// object that called it. Multicast copies are new Packet objects
// (SimpleSwitch::multicast -> clone_with_phv_ptr, which builds a fresh
// Packet with no truncation length), and the original is discarded, so an
// ingress truncate does not shorten multicast copies. A unicast packet
// keeps its Packet object and is truncated.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        truncate(3);
        if (hdr.h.op == 1) {
            sm.mcast_grp = 1;
        } else {
            sm.egress_spec = 2;
        }
    }
}

control MtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control MtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MtParser(), MtVerify(), MtIngress(), MtEgress(), MtCompute(),
         MtDeparser()) main;
