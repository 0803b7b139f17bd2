// Widths and sizes written as expressions (issue 17, family 2): `bit<W>`,
// `int<W>` and `varbit<N>` with named constants, `bit<2 + 2>` and other
// unparenthesised widths (p4c allows any expression there but `>`, `>>`
// and `>=`, which need parentheses), typedefs over them, stack sizes, value
// set, register and table sizes from constants and constant expressions,
// and a table size from a constructor parameter (folded per instance).
// Written for Janus from the P4_16 specification and p4c's grammar.
#define V1MODEL_VERSION 20200408
#include <core.p4>
#include <v1model.p4>

const bit<32> W = 8;
const int N = 2;
typedef bit<W> byte_t;
typedef int<W * 2> sword_t;

header fixed_t {
    bit<2 + 2> hi;
    bit<W - 4> lo;
    byte_t len;
    bit<(W > 4 ? 32w16 : 32w8)> tag;
    bit<W << 1> wide;
}
header opt_t { varbit<N * W * 4> data; }
header out_t { bit<W> a; bit<W> b; bit<W> c; bit<W> d; }

struct headers_t { fixed_t f; opt_t o; out_t res; fixed_t[N] extra; }
struct meta_t { sword_t s; }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<2 + 2>>(N * 2) kinds;
    state start {
        pkt.extract(hdr.f);
        pkt.extract(hdr.o, (bit<32>)hdr.f.len * 8);
        transition select(hdr.f.hi) { kinds: accept; default: accept; }
    }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Count(inout headers_t hdr)(bit<32> tsize) {
    register<bit<W>, bit<32>>(N * 4) seen;
    action set_c(bit<W> v) { hdr.res.c = v; }
    table by_len {
        key = { hdr.f.len : exact; }
        actions = { set_c; NoAction; }
        size = tsize * N;
        default_action = NoAction();
    }
    table by_tag {
        key = { hdr.f.tag : exact; }
        actions = { set_c; NoAction; }
        size = W * 64 + 1;
        const entries = { 16w0x0102 : set_c(0x5a); }
    }
    apply {
        by_len.apply();
        by_tag.apply();
        bit<W> n;
        seen.read(n, 1);
        seen.write(1, n + 1);
        hdr.res.d = n + 1;
    }
}
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Count(300) count;
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        meta.s = (sword_t)(int<W>)hdr.f.len;
        hdr.res.a = hdr.f.hi ++ hdr.f.lo;
        bit<(W * 2)> widened = (bit<W + W>)hdr.f.len + (bit<16>)meta.s;
        hdr.res.b = widened[7:0];
        count.apply(hdr);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.res); pkt.emit(hdr.f); pkt.emit(hdr.o); }
}
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
