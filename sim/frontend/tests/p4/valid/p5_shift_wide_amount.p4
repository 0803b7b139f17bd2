// Shifts by run-time amounts wider than the shifted value and at or past
// its width: bit<W> << or >> by n >= W gives 0 (n = 256 in a bit<16>, whose
// low 8 bits are 0, must not wrap to a shift by 0); int<W> >> n >= W gives
// -1 for a negative value and 0 otherwise. bit<64> by 63, 64, 65 and 255.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8>  a;
    bit<16> n;
    bit<64> w;
    bit<8>  m;
}

header out_t {
    bit<8>  shl;
    bit<8>  shr;
    bit<8>  sar;
    bit<64> wshl;
    bit<64> wshr;
    bit<64> wsar;
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
        hdr.o.shl = hdr.i.a << hdr.i.n;
        hdr.o.shr = hdr.i.a >> hdr.i.n;
        hdr.o.sar = (bit<8>)((int<8>)hdr.i.a >> hdr.i.n);
        hdr.o.wshl = hdr.i.w << hdr.i.m;
        hdr.o.wshr = hdr.i.w >> hdr.i.m;
        hdr.o.wsar = (bit<64>)((int<64>)hdr.i.w >> hdr.i.m);
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
