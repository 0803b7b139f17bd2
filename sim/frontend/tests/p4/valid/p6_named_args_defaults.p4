// Named arguments in any order, skipped parameters with default values,
// actions called directly with named arguments, a control constructor
// parameter with a default value (P4_16 spec 6.8.2: named arguments bind by
// name; an omitted parameter with a default takes the default).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; bit<8> e; bit<8> f; }
struct headers_t { h_t h; }
struct meta_t { }

bit<8> mix(in bit<8> x, in bit<8> y = 3) {
    return (x << 4) | y;
}

bit<8> three(in bit<8> p, in bit<8> q = 0x20, in bit<8> r = 0x03) {
    return p + q + r;
}

control Adder(inout bit<8> v)(bit<8> k = 4) {
    apply { v = v + k; }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    Adder() dflt;
    Adder(k = 0x10) named;
    action setpair(bit<8> lo, bit<8> hi) { hdr.h.e = hi - lo; }
    apply {
        sm.egress_spec = 2;
        hdr.h.a = mix(y = 2, x = hdr.h.a);
        hdr.h.b = mix(x = hdr.h.b);
        hdr.h.c = mix(hdr.h.c);
        hdr.h.d = three(r = 1, p = hdr.h.d);
        setpair(hi = hdr.h.e, lo = 1);
        dflt.apply(hdr.h.f);
        named.apply(v = hdr.h.f);
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
