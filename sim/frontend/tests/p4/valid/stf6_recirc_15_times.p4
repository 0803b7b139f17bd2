// simple_switch recirculation: a packet may be recirculated many times;
// each pass re-enters the parser with the deparsed bytes (instance_type 4).
// A packet recirculated 15 times (16 passes through ingress) still leaves.
// (bmv2 has no pass limit; the number of passes a simulator allows beyond
// this is not tested.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> target;  // passes wanted
    bit<8> n;       // passes made (ingress increments)
    bit<8> it;      // instance_type in the last ingress
    bit<8> sum;     // sum of 1..n
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> keep;
}

parser RfParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RfVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RfIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.n = hdr.h.n + 1;
        hdr.h.sum = hdr.h.sum + hdr.h.n;
        hdr.h.it = (bit<8>)sm.instance_type;
        sm.egress_spec = 2;
    }
}

control RfEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.n < hdr.h.target) {
            recirculate_preserving_field_list(1);
        }
    }
}

control RfCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RfDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RfParser(), RfVerify(), RfIngress(), RfEgress(), RfCompute(),
         RfDeparser()) main;
