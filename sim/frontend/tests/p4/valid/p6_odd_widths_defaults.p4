// Edge widths and defaults: an action parameter with a default value
// called with and without it, a `bit<0>` struct field (zero bits, always
// 0), `int<1>` (values -1 and 0), a serializable enum over `int<8>` with
// a negative member, `const default_action` and a table `size` computed
// from a constant.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; bit<8> e; }
struct headers_t { h_t h; }
struct z_t { bit<0> nothing; bit<8> v; }
struct meta_t { }
enum int<8> Sgn { Neg = -1, Zero = 0, Pos = 1 }
const bit<32> N = 4;

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action put(bit<8> v = 5) { hdr.h.a = hdr.h.a + v; }
    action mark() { hdr.h.e = 0xee; }
    table t {
        key = { hdr.h.e : exact; }
        actions = { mark; }
        const default_action = mark();
        size = N * 2 + 1;
    }
    apply {
        sm.egress_spec = 2;
        put();
        put(0x10);
        z_t z = { 0, hdr.h.b };
        hdr.h.b = z.v + (bit<8>)z.minSizeInBits();
        int<1> q = -1;
        hdr.h.c = (bit<8>)(int<8>)q;
        Sgn s = (Sgn)(int<8>)hdr.h.d;
        if (s == Sgn.Neg) { hdr.h.d = 0x80; }
        else if (s == Sgn.Pos) { hdr.h.d = 0x01; }
        else { hdr.h.d = 0x7f; }
        t.apply();
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
