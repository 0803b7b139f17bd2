// STF rule: bit<128> arithmetic is exact modulo 2^128: carries and borrows
// cross the 64-bit boundary, shifts move bits across it, the product keeps
// the low 128 bits, and comparisons use all 128 bits.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<128> a;
    bit<128> b;
}

header out_t {
    bit<128> sum;
    bit<128> diff;
    bit<128> prod;
    bit<128> shl65;
    bit<128> shr63;
    bit<8>   flags;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser WbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control WbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.sum = hdr.i.a + hdr.i.b;
        hdr.o.diff = hdr.i.a - hdr.i.b;
        hdr.o.prod = hdr.i.a * hdr.i.b;
        hdr.o.shl65 = hdr.i.a << 65;
        hdr.o.shr63 = hdr.i.a >> 63;
        hdr.o.flags = 0;
        if (hdr.i.a > hdr.i.b) {
            hdr.o.flags = hdr.o.flags | 1;
        }
        if (hdr.i.a == hdr.i.b) {
            hdr.o.flags = hdr.o.flags | 2;
        }
        if (hdr.i.a[127:64] == hdr.i.b[127:64]) {
            hdr.o.flags = hdr.o.flags | 4;
        }
    }
}

control WbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control WbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(WbParser(), WbVerify(), WbIngress(), WbEgress(), WbCompute(),
         WbDeparser()) main;
