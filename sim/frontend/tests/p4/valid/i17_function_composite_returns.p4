// Functions returning composite values (issue 17, run time; P4_16 spec 10:
// a function returns a copy of a value of any type): a struct built from a
// list (`return { a, b };`), a struct variable, a struct holding a struct,
// a header made valid in the function, a tuple; results used as arguments
// (`swap(mk(...))`), through members (`mk(a, 7).y`, `nest(a).p.y` in a
// condition) and assigned.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header e_t { bit<8> v; bit<8> w; }
struct headers_t { h_t h; e_t e; }
struct meta_t { }
struct pair_t { bit<8> x; bit<8> y; }
struct outer_t { pair_t p; bit<8> z; }

pair_t mk(in bit<8> a, in bit<8> b) { return { a, b }; }
pair_t swap(in pair_t p) { pair_t r; r.x = p.y; r.y = p.x; return r; }
outer_t nest(in bit<8> a) { outer_t o = { mk(a, a + 1), a + 2 }; return o; }
e_t hdr_of(in bit<8> v) { e_t e; e.setValid(); e.v = v; e.w = v + 1; return e; }
tuple<bit<8>, bit<8>> tup(in bit<8> a) { return { a, a ^ 0xff }; }
bit<8> sum(in pair_t p) { return p.x + p.y; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        pair_t q = swap(mk(hdr.h.a, hdr.h.b));
        hdr.h.c = mk(hdr.h.a, 7).y + q.x;
        hdr.h.d = sum(swap({ hdr.h.a, hdr.h.b }));
        if (nest(hdr.h.a).p.y == hdr.h.a + 1) {
            hdr.h.a = nest(hdr.h.a).z;
        }
        hdr.e = hdr_of(hdr.h.b);
        tuple<bit<8>, bit<8>> t = tup(hdr.h.b);
        hdr.h.b = t[1];
    }
}
control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.e); } }
V1Switch(P(), V(), Ing(), E(), C(), D()) main;
