// A sub-parser instantiated in a parser and applied with an in argument.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header x_t { bit<8> v; }
struct inner_t { x_t x1; x_t x2; }
parser Sub(packet_in p, inout inner_t i, in bit<8> n) {
    state start { p.extract(i.x1); transition select(n) { 2: two; default: accept; } }
    state two { p.extract(i.x2); transition accept; }
}

struct headers_t { h_t h; inner_t in1;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub() sp;

    state start { pkt.extract(hdr.h); sp.apply(pkt, hdr.in1, hdr.h.a); transition accept;
 }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
