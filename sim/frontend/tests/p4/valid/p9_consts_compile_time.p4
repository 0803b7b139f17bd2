// Constant expressions: int arithmetic at any width, bool constants, ?: on constants, minSizeInBytes of a type.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
const int K = 3;
const bit<8> KB = (bit<8>)(K * K);
const bool FLAG = K > 2 && !(K == 4);
const int<8> NS = -3;
const bit<8> SH = 1 << K;
const bit<8> MX = K > 5 ? 8w1 : 8w2;
const int BIG = 1 << 100;
const bit<8> FROM_BIG = (bit<8>)(BIG >> 96);
const bit<8> SIZE = (bit<8>)h_t.minSizeInBytes();

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.h.a = KB + SH;
        hdr.h.b = FLAG ? MX : 8w0;
        hdr.h.c = (bit<8>)NS + FROM_BIG;
        hdr.h.d = SIZE;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
