// Slices of slices (x[15:4][7:2] is x[11:6]), a slice of a concatenation,
// a slice written from another slice, and `~` on a 3-bit value: the
// complement stays within 3 bits (~0 == 7, not 255 when widened after).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<16> x;
    bit<8>  y;
    bit<3>  n;
    bit<5>  pad;
}

header out_t {
    bit<6>  ss;
    bit<2>  pad1;
    bit<8>  cs;
    bit<16> w;
    bit<8>  notn;
    bit<8>  flags;
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
        hdr.o.ss = hdr.i.x[15:4][7:2];
        hdr.o.cs = (hdr.i.x ++ hdr.i.y)[11:4];
        hdr.o.w = hdr.i.x;
        hdr.o.w[11:4] = hdr.i.y[3:0] ++ hdr.i.x[15:12];
        hdr.o.notn = (bit<8>)(~hdr.i.n);
        hdr.o.flags = 0;
        if (~hdr.i.n == 3w7) { hdr.o.flags = hdr.o.flags | 1; }
        if ((bit<8>)(~hdr.i.n) > 8w7) { hdr.o.flags = hdr.o.flags | 2; }
        if (~hdr.i.n[1:0] == 2w3) { hdr.o.flags = hdr.o.flags | 4; }
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
