// Composite results in other places (issue 17, run time): a header stack
// returned by a function and assigned whole (both elements valid), a
// struct result's member as a parser `select` key, and a struct result
// read inside an action.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; h_t[2] s; }
struct meta_t { }
struct pair_t { bit<8> x; bit<8> y; }

pair_t mk(in bit<8> a) { return { a + 1, a + 2 }; }
h_t[2] stk(in bit<8> a) { h_t[2] s; s[0] = { a, a }; s[1] = { a + 1, a + 1 }; return s; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(mk(hdr.h.a).y) { 3: accept; default: reject; }
    }
}
control V(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set() { hdr.h.b = mk(hdr.h.b).x; }
    table t { key = { hdr.h.a : exact @name("k"); } actions = { set; NoAction; } default_action = NoAction(); }
    apply {
        sm.egress_spec = 2;
        hdr.s = stk(hdr.h.a);
        t.apply();
    }
}
control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), Ing(), E(), C(), D()) main;
