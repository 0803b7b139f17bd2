// Cast chains: bit<4> -> int<4> -> int<8> sign-extends, then -> bit<8>
// keeps the bits; bit<4> -> bit<8> zero-extends; int<8> -> int<4> keeps
// the low bits (and their sign); bool -> bit<1>; int<8> -> bit<8> ->
// bit<16> zero-extends the already-unsigned value.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<4> n;
    bit<4> pad;
    int<8> s;
}

header out_t {
    bit<8>  sx;
    bit<8>  zx;
    bit<8>  narrow;
    bit<16> wide_u;
    bit<16> wide_s;
    bit<1>  is_zero;
    bit<1>  neg;
    bit<6>  pad;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.sx = (bit<8>)(int<8>)(int<4>)hdr.i.n;
        hdr.o.zx = (bit<8>)hdr.i.n;
        hdr.o.narrow = (bit<8>)(int<8>)(int<4>)hdr.i.s;
        hdr.o.wide_u = (bit<16>)(bit<8>)hdr.i.s;
        hdr.o.wide_s = (bit<16>)(int<16>)hdr.i.s;
        hdr.o.is_zero = (bit<1>)(hdr.i.n == 0);
        hdr.o.neg = (bit<1>)(hdr.i.s < 0);
        hdr.o.pad = 0;
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
