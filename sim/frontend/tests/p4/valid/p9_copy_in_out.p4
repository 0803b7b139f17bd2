// Copy-in/copy-out: inout swap, a function called with the same variable twice, a function called as a statement (result discarded).
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
bit<8> f(inout bit<8> x, in bit<8> y) { x = x + y; return y; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action swap(inout bit<8> x, inout bit<8> y) { bit<8> t = x; x = y; y = t; }

    apply {
        sm.egress_spec = 1;
        swap(hdr.h.a, hdr.h.b);
        hdr.h.c = 1;
        hdr.h.d = f(hdr.h.c, hdr.h.c + 5);
        bit<8> z = 3;
        f(z, z);
        hdr.h.c = hdr.h.c + z;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
