// STF rule: table keys and action data wider than 64 bits. A bit<128>
// exact key must match in all 128 bits (a difference in the top bit
// misses); a bit<80> ternary key takes its mask from the digits written in
// STF (`*` = don't care, and a short value like 0xaa compares only the low
// byte); with two matching ternary entries the larger priority wins; a
// bit<96> action parameter arrives intact.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<128> k;
    bit<80>  t;
    bit<96>  d;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser WtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control WtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set(bit<96> d) {
        hdr.h.d = d;
    }
    table wt {
        key = {
            hdr.h.k : exact;
            hdr.h.t : ternary;
        }
        actions = { set; }
        default_action = set(0);
    }
    apply {
        sm.egress_spec = 1;
        wt.apply();
    }
}

control WtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control WtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(WtParser(), WtVerify(), WtIngress(), WtEgress(), WtCompute(),
         WtDeparser()) main;
