// lookahead of a bit<8> and of a header type; advance.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header x_t { bit<8> v; }
header two_t { bit<4> hi; bit<4> lo; }

struct headers_t { h_t h; x_t x;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition select(pkt.lookahead<bit<8>>()) { 0xff: skip; default: peek; }
 }
    state skip { pkt.advance(16); pkt.extract(hdr.x); transition accept; }
    state peek { two_t t = pkt.lookahead<two_t>(); hdr.h.c = (bit<8>)t.lo; pkt.extract(hdr.x); transition accept; }

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
