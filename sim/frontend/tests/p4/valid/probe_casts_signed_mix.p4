// Probe (P4_16 arithmetic, spec 8.5-8.11): casts between bit<W>, int<W>,
// bool and bit<1>; arithmetic >> on int<W> (sign fills, also by amounts past
// the width); saturating |+| and |-| on bit and int; modular - and unary -
// (wrapping at the minimum); shifts by runtime amounts >= the width give 0;
// ++ concatenation; constant / and %.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header out_t {
    bit<8> sh; bit<16> ext; bit<8> ssat; bit<8> usat; bit<8> wrap;
    bit<8> boolbit; bit<8> trunc; bit<8> neg; bit<8> lt; bit<8> minus1;
    bit<8> shl_wide; bit<8> shr_rt; bit<8> shl_rt; bit<16> cat;
    bit<8> div; bit<8> mod; bit<8> sshr_wide; bit<8> negmin;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        int<8> s = (int<8>)hdr.i.a;
        hdr.o.sh = (bit<8>)(s >> 2);
        hdr.o.ext = (bit<16>)(int<16>)s;
        hdr.o.ssat = (bit<8>)(s |-| 8s100);
        hdr.o.usat = hdr.i.a |+| 8w100;
        hdr.o.wrap = hdr.i.a - 8w201;
        bool bb = (bool)hdr.i.b[0:0];
        hdr.o.boolbit = (bit<8>)(bit<1>)bb;
        hdr.o.trunc = (bit<8>)(bit<4>)hdr.i.a;
        hdr.o.neg = (bit<8>)(-s);
        hdr.o.lt = (s < 8s0) ? 8w1 : 8w0;
        hdr.o.minus1 = (bit<8>)-1;
        hdr.o.shl_wide = hdr.i.a << 8w9;
        hdr.o.shr_rt = hdr.i.a >> hdr.i.b;
        hdr.o.shl_rt = 8w1 << hdr.i.b[2:0];
        hdr.o.cat = hdr.i.a ++ hdr.i.b;
        hdr.o.div = 8w200 / 8w7;
        hdr.o.mod = 8w200 % 8w7;
        hdr.o.sshr_wide = (bit<8>)(s >> hdr.i.b);
        int<8> mn = -128;
        hdr.o.negmin = (bit<8>)(-mn);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
