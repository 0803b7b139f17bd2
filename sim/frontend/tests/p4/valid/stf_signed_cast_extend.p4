// STF rule: casts between signed and unsigned types. int<8> -> int<16>
// sign-extends; bit<8> -> bit<16> zero-extends; bit<W> <-> int<W> keeps the
// bits; int<8> -> int<4> keeps the low 4 bits, which then read as a signed
// 4-bit value. Comparisons on int<W> are signed.
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<8>  x;
    bit<8>  u;
    int<16> w;
}

header out_t {
    bit<16> ext;     // (bit<16>)(int<16>)x: sign extension
    bit<16> zext;    // (bit<16>)(bit<8>)x: zero extension
    bit<8>  narrow;  // (int<8>)(int<4>)x: truncate then sign-extend
    bit<8>  flags;
    int<16> sum;     // (int<16>)x + w, wrapping
    bit<32> w32;     // (bit<32>)(int<32>)w
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser ScParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control ScVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.ext = (bit<16>)(int<16>)hdr.i.x;
        hdr.o.zext = (bit<16>)(bit<8>)hdr.i.x;
        hdr.o.narrow = (bit<8>)(int<8>)(int<4>)hdr.i.x;
        bit<8> f = 0;
        if (hdr.i.x < 0) {
            f = f | 0x01;
        }
        if ((int<8>)hdr.i.u < 0) {
            f = f | 0x02;
        }
        if (hdr.i.u > 127) {
            f = f | 0x04;
        }
        if (hdr.i.x < (int<8>)hdr.i.u) {
            f = f | 0x08;
        }
        hdr.o.flags = f;
        hdr.o.sum = (int<16>)hdr.i.x + hdr.i.w;
        hdr.o.w32 = (bit<32>)(int<32>)hdr.i.w;
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ScCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
