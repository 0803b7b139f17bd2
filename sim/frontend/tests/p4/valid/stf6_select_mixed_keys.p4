// P4_16 select: a tuple key of three fields of different widths (4, 12 and
// 8 bits) is matched against keysets in order; each element may be a
// value, a value &&& mask, or `_`; the first case whose every element
// matches wins; `default` catches the rest.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<4>  a;
    bit<12> b;
    bit<8>  c;
    bit<8>  tag;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<8> tag;
}

parser SmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a, hdr.h.b, hdr.h.c) {
            (4w1, 12w0x0ff, 8w0x10 &&& 8w0xf0)  : s1;
            (4w1 &&& 4w1, _, 8w5)               : s2;
            (_, 12w0xa00 &&& 12w0xf00, _)       : s3;
            default                             : s5;
        }
    }
    state s1 { meta.tag = 1; transition accept; }
    state s2 { meta.tag = 2; transition accept; }
    state s3 { meta.tag = 3; transition accept; }
    state s5 { meta.tag = 5; transition accept; }
}

control SmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.tag = meta.tag;
    }
}

control SmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SmParser(), SmVerify(), SmIngress(), SmEgress(), SmCompute(),
         SmDeparser()) main;
