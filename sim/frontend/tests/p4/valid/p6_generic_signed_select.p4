// Generic functions called with explicit type arguments (`max<bit<16>>`,
// spec 6.8.3 / 7.3), signed select keys with negative constants and a
// signed range (spec 13.6: keyset values take the key's type), and a
// signed comparison feeding a conditional expression.
#include <core.p4>
#include <v1model.p4>

header h_t { int<8> s; bit<16> a; bit<16> b; bit<8> r; bit<16> m; bit<8> sw; }
struct headers_t { h_t h; }
struct meta_t { }

T max<T>(in T x, in T y) { return x > y ? x : y; }
void swap<T>(inout T x, inout T y) { T t = x; x = y; y = t; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.s) {
            -1: minus_one;
            -128 .. -2: negative;
            0: zero;
            default: accept;
        }
    }
    state minus_one { hdr.h.r = 0xf1; transition accept; }
    state negative { hdr.h.r = 0xf0; transition accept; }
    state zero { hdr.h.r = 0x00; transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.m = max<bit<16>>(hdr.h.a, hdr.h.b);
        swap<bit<16>>(hdr.h.a, hdr.h.b);
        int<8> lim = -8s4;
        hdr.h.sw = max(hdr.h.s, lim) < 0 ? 8w1 : 8w2;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
