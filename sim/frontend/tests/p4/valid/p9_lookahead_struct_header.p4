// lookahead<S>() of a struct holding a header: the fields take the bits
// after the cursor in order, and the header is valid (the cursor stays).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct pre_t { bit<4> n; bit<4> m; h_t inner; }
struct H { h_t h; h_t inner; }
struct M { pre_t pre; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
  state start {
    m.pre = p.lookahead<pre_t>();
    p.extract(h.h);
    transition select(m.pre.n) { 1: two; default: accept; }
  }
  state two { h.inner = m.pre.inner; transition accept; }
}
control I(inout H h, inout M m, inout standard_metadata_t s) {
  apply { s.egress_spec = 1; if (m.pre.inner.isValid()) { h.h.b = (bit<8>) m.pre.m; } }
}

control V(inout H h, inout M m) { apply { } }
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
