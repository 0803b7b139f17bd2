// Type expressions and literals: a width computed from a constant
// (`bit<(W + 1)>`), typedef chains, a `type` over a typedef with casts both
// ways, signed literals (`-8s3` is the negation of 8s3 = 0xfd), binary,
// octal and hex literals with `_` separators, and a 128-bit literal
// (P4_16 spec 6.4.3.3 literal forms, 7.2.5 new types, 8.11 casts).
#include <core.p4>
#include <v1model.p4>

const bit<32> W = 7;
typedef bit<(W + 1)> B8;
typedef B8 B8b;
type B8b T8;
typedef T8 T8alias;

header h_t {
    B8      a;
    B8b     b;
    bit<8>  c;
    bit<8>  d;
    int<8>  e;
    bit<8>  f;
    bit<128> w;
}
struct headers_t { h_t h; }
struct meta_t { }

T8alias bump(in T8 t) {
    return (T8)((bit<8>)t + 1);
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        T8 t = (T8)hdr.h.a;
        T8alias u = bump(t);
        hdr.h.a = (B8)u;
        hdr.h.b = hdr.h.b ^ 8w0b1010_0101;
        hdr.h.c = 8w0o17 + 0x1_0;
        hdr.h.d = (bit<8>)(-8s3);
        hdr.h.e = hdr.h.e + -8s3;
        hdr.h.f = 0b1111_0000 | 8w0x0_F;
        hdr.h.w = hdr.h.w + 128w0x0100_0000_0000_0000_0000_0000_0000_0001;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
