// Casts from the spec's list: width and sign in separate steps, bool <-> bit<1>, to a serializable enum.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
enum bit<8> En { A = 1, B = 2 }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        bit<16> w = (bit<16>)hdr.h.a;
        int<8> s = (int<8>)hdr.h.a;
        int<16> sw = (int<16>)s;
        bool b = (bool)hdr.h.b[0:0];
        bit<1> one = (bit<1>)b;
        En e = (En)hdr.h.b;
        hdr.h.c = (bit<8>)(bit<16>)(sw >> 8) + (bit<8>)one;
        hdr.h.d = (bit<8>)(bit<4>)(w + 16w0x1F) + (bit<8>)e;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
