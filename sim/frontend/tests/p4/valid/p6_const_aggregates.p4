// Constants of aggregate type: a struct constant, a nested struct
// constant read field by field, a tuple constant indexed with a constant,
// an invalid-header constant (`{#}`, spec 8.16) copied into a local header
// (which is then invalid), `{#}` assigned to a parsed header, and
// static_assert over size methods of types and expressions, as a constant
// and as a statement (spec 8.21; core.p4's static_assert).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; bit<8> e; }
header x_t { bit<8> v; }
struct pair_t { bit<8> lo; bit<8> hi; }
struct cfg_t { pair_t p; bit<8> extra; bool on; }
struct headers_t { h_t h; x_t x; }
struct meta_t { }

const pair_t PAIR = { lo = 0x10, hi = 0x20 };
const cfg_t CFG = { p = { 3, 4 }, extra = 0x55, on = true };
const tuple<bit<8>, bit<16>> TUP = { 8w7, 16w0x0102 };
const x_t NOHDR = {#};

const bool size_ok = static_assert(h_t.minSizeInBits() == 40, "h_t is 40 bits");
const bool cfg_ok = static_assert(cfg_t.minSizeInBytes() == 4);

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); pkt.extract(hdr.x); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        static_assert(hdr.h.minSizeInBytes() == 5);
        hdr.h.a = PAIR.hi - PAIR.lo;
        hdr.h.b = CFG.p.lo + CFG.p.hi + (CFG.on ? CFG.extra : 8w0);
        hdr.h.c = TUP[0] + TUP[1][7:0];
        hdr.h.d = (bit<8>)hdr.x.minSizeInBits() + (bit<8>)CFG.minSizeInBits();
        x_t tmp = NOHDR;
        hdr.h.e = tmp.isValid() ? 8w1 : 8w2;
        if (hdr.x.v == 0) { hdr.x = {#}; }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.x); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
