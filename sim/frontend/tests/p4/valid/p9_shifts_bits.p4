// Shifts by more than the width, by a run-time amount, signed right shift.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        bit<8> x = hdr.h.a;
        hdr.h.b = x << 10;
        hdr.h.c = x >> hdr.h.d;
        int<8> s = (int<8>)x;
        hdr.h.d = (bit<8>)(s >> hdr.h.d);
        hdr.h.a = 8w1 << 7;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
