// A table `size` from a constructor parameter (issue 17, run time): each
// instance of `Lim` holds at most its own `n * 2` entries, as bmv2 sizes a
// table by p4c's per-instance `max_size`; an `add` into a full table is
// refused (the STF driver goes on), so the entry is not installed.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> a;
    bit<8> b;
    bit<8> c;
}
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control V(inout headers_t hdr, inout meta_t meta) { apply { } }

control Lim(in bit<8> k, inout bit<8> r)(bit<32> n) {
    action set(bit<8> v) { r = v; }
    table t {
        key = { k : exact; }
        actions = { set; }
        default_action = set(0xee);
        size = n * 2;
    }
    apply { t.apply(); }
}

// The size passes down a chain of constructor arguments: Wrap(0) makes
// Lim(0 + 1), whose table holds 2.
control Wrap(in bit<8> k, inout bit<8> r)(bit<32> n) {
    Lim(n + 1) inner;
    apply { inner.apply(k, r); }
}

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    Lim(1) small;
    Lim(2) large;
    Wrap(0) chained;
    apply {
        sm.egress_spec = 2;
        small.apply(hdr.h.k, hdr.h.a);
        large.apply(hdr.h.k, hdr.h.b);
        chained.apply(hdr.h.k, hdr.h.c);
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), V(), Ing(), E(), C(), D()) main;
