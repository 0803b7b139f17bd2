// Language test: `in` parameters of a nested control. An `in` argument is
// the value at the call: one that an `inout` argument of the same call
// overlaps keeps its old value while the child writes the `inout` one; a
// header passed `in` shows its fields and its validity.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct hs_t { h_t h; h_t unused; }
struct m_t { bit<8> x; bit<8> y; bit<8> seen; bit<8> old; }
parser P(packet_in p, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start { p.extract(hdr.h); transition accept; }
}
// Reads a header passed `in`.
control Reader(in hs_t hdr, inout m_t m) {
    apply {
        if (hdr.h.isValid()) { m.seen = hdr.h.a + hdr.h.b; }
        if (!hdr.unused.isValid()) { m.seen = m.seen + 1; }
    }
}
// `v` and `w` are the same field at the call: writing `w` leaves `v`.
control Overlap(in bit<8> v, inout bit<8> w, out bit<8> old) {
    apply { w = w + 100; old = v; }
}
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    Reader() reader;
    Overlap() overlap;
    apply {
        m.x = hdr.h.a;
        reader.apply(hdr, m);
        overlap.apply(m.x, m.x, m.old);
        hdr.h.a = m.seen;
        hdr.h.b = m.old;
        m.y = m.x;
        sm.egress_spec = (bit<9>) m.y;
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out p, in hs_t hdr) { apply { p.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
