// Tuple and header values: a local tuple indexed by constants at run time,
// a header constant (valid, with its fields) copied into a packet header,
// a struct constant holding a header (its header member copied to a
// packet header makes it valid), equality of a struct with a
// constant, and a tuple constant passed as a function argument.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header x_t { bit<8> v; bit<8> w; }
struct headers_t { h_t h; x_t x; }
struct meta_t { }
struct pt_t { bit<8> p; bit<8> q; }

const x_t XC = { v = 0xaa, w = 0xbb };
const pt_t PT = { p = 1, q = 2 };
const tuple<bit<8>, bool> TB = { 0x42, true };
struct wrap_t { x_t x; bit<8> n; }
const wrap_t WR = { x = { v = 0x0c, w = 0x0d }, n = 0x0e };

bit<8> pick(in tuple<bit<8>, bool> t) {
    return t[1] ? t[0] : 8w0;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        tuple<bit<8>, bit<8>> t = { hdr.h.a, hdr.h.b };
        hdr.h.a = t[1];
        hdr.h.b = t[0];
        pt_t mine = { p = hdr.h.c, q = 2 };
        if (mine == PT) { hdr.h.c = 0xee; }
        hdr.h.d = pick(TB);
        if (hdr.h.d == 0x42 && hdr.h.c == 0xee) { hdr.x = XC; }
        else if (hdr.h.c == 0x33) { hdr.x = WR.x; hdr.h.c = WR.n; }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.x); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
