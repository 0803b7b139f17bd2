// for loops: three-clause with continue/break, for-in over a list, two init and update statements.
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
        bit<8> sum = 0;
        for (bit<8> i = 0; i < hdr.h.a; i = i + 1) {
            if (i == 2) { continue; }
            if (i == 6) { break; }
            sum = sum + i;
        }
        hdr.h.b = sum;
        bit<8> acc = 0;
        for (bit<8> v in (list<bit<8>>){ 3, 5, 7 }) { acc = acc + v; }
        hdr.h.c = acc;
        bit<8> k; for (bit<8> j = 0, k = 10; j < 3; j = j + 1, k = k - 1) { hdr.h.d = k; }

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
