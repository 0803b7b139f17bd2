// STF action data wider than 64 bits: a bit<100> and a bit<72> parameter,
// given in hex or in decimal (numbers above 2^64), land in the header with
// every bit in place; a value shorter than the width is zero-extended.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>   k;
    bit<4>   pad;
    bit<100> w;
    bit<72>  x;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser ApParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ApVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ApIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set(bit<100> w, bit<72> x) {
        hdr.h.w = w;
        hdr.h.x = x;
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control ApEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ApCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ApDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ApParser(), ApVerify(), ApIngress(), ApEgress(), ApCompute(),
         ApDeparser()) main;
