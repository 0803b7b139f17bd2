// Part-selects with a run-time start as the targets of a function's result
// and of an action's `inout` argument (copied in, then back), and of `...`
// (the type's default, zero).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> s;
    bit<8> b;
    bit<8> c;
    bit<8> d;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser PcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

bit<4> low_nibble(in bit<8> v) {
    return v[3:0];
}

action double_it(inout bit<4> t) {
    t = t + t;
}

control PcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.h.b[hdr.h.s[2:0] +: 4] = low_nibble(hdr.h.c);
        double_it(hdr.h.d[hdr.h.s[2:0] +: 4]);
        hdr.h.c[hdr.h.s[2:0] -: 2] = ...;
    }
}

control PcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control PcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PcParser(), PcVerify(), PcIngress(), PcEgress(), PcCompute(),
         PcDeparser()) main;
