// `break` and `continue` inside a `switch` inside a loop act on the loop
// (a P4 switch case has no break of its own, spec 12.7 / 12.8), a function
// returning from a switch inside a loop, member access and method calls on
// a call's result (`f().x`, `mk().isValid()`), and a size method whose
// receiver is a call that is not evaluated (spec 8.21).
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; bit<8> n; }
struct headers_t { h_t h; e_t[4] st; }
struct pr_t { bit<8> x; bit<8> y; }
struct meta_t { }

pr_t make(in bit<8> v) { return { v + 1, v + 2 }; }

e_t valid_e(in bit<8> v) {
    e_t e = { v };
    return e;
}

bit<8> bump(inout bit<8> n) { n = n + 1; return n; }

bit<8> first_big(in e_t[4] s) {
    for (e_t e in s) {
        switch (e.v) {
            0: { return 0; }
            0x80: { return 0x80; }
            default: { }
        }
    }
    return 0xff;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); pkt.extract(hdr.st[0]); pkt.extract(hdr.st[1]);
                  pkt.extract(hdr.st[2]); pkt.extract(hdr.st[3]); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> sum = 0;
        for (e_t e in hdr.st) {
            switch (e.v) {
                1: { continue; }
                9: { break; }
                default: { sum = sum + e.v; }
            }
        }
        hdr.h.a = sum;
        hdr.h.b = first_big(hdr.st);
        hdr.h.c = make(hdr.h.c).y;
        hdr.h.d = valid_e(3).isValid() ? 8w1 : 8w0;
        hdr.h.n = (bit<8>)make(bump(hdr.h.n)).minSizeInBits() + hdr.h.n;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.st); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
