// Default arguments of parsers', controls' and packages' parameters
// (issue 17, family 5): a constructor parameter with a default value may
// be left out where the block is instantiated (`Add() a;` for
// `control Add(...)(bit<8> n = 5)`), an apply parameter with one where
// the instance is applied (`scale.apply(hdr.h)` for `in bit<8> by = 2`),
// and a package parameter with one in the package's instantiation.
// Written for Janus from the P4_16 specification (parameters with default
// values) and p4c's frontends/p4/defaultArguments.cpp.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; }
struct headers_t { h_t h; }
struct meta_t { }

parser Sub(packet_in pkt, out h_t h)(bit<8> first = 0x70) {
    state start { pkt.extract(h); h.c = first; transition accept; }
}
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub() sub;
    state start { sub.apply(pkt, hdr.h); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Add(inout h_t h)(bit<8> n = 5) { apply { h.a = h.a + n; } }
control Scale(inout h_t h, in bit<8> by = 2) { apply { h.b = h.b * by; } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Add() five;
    Add(16) sixteen;
    Scale() scale;
    apply {
        sm.egress_spec = 1;
        five.apply(hdr.h);
        sixteen.apply(hdr.h);
        scale.apply(hdr.h);
        scale.apply(hdr.h, 3);
        hdr.h.c = hdr.h.c + 1;
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
