// STF rule (simple_switch multicast): a group whose nodes list the same port
// more than once sends one copy per (node, port), so that port gets several
// copies, each with its own node's egress_rid (in the order the nodes were
// associated with the group). Egress runs once per copy, so a change made
// only for one rid (here a tag header made valid) appears only in that copy.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> rid;
    bit<8>  port;
}

header tag_t {
    bit<8> t;
}

struct headers_t {
    h_t   h;
    tag_t tag;
}

struct meta_t { }

parser MpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.mcast_grp = (bit<16>)hdr.h.op;
    }
}

control MpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.rid = sm.egress_rid;
        hdr.h.port = (bit<8>)sm.egress_port;
        if (sm.egress_rid == 200) {
            hdr.tag.setValid();
            hdr.tag.t = 0x7e;
        }
    }
}

control MpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.tag);
    }
}

V1Switch(MpParser(), MpVerify(), MpIngress(), MpEgress(), MpCompute(),
         MpDeparser()) main;
