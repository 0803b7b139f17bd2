// Header stack expressions: cast, inferred, with ...; stack equality and assignment.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header G<T> { bit<8> b; T t; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        G<bit<8>>[3] s = (G<bit<8>>[3]){ {1, 2}, {3, 4}, (G<bit<8>>){#} };
        G<bit<8>>[3] s1 = { {1, 2}, {3, 4}, (G<bit<8>>){#} };
        G<bit<8>>[3] s2 = { {1, 2}, {3, 4}, ... };
        if (s == s1) { hdr.h.a = 1; }
        if (s1 == s2) { hdr.h.b = 1; }
        if (s2[2] == {#}) { hdr.h.c = s2[1].t; }
        G<bit<8>>[3] s3 = s;
        s3[0].b = 9;
        if (s3 != s) { hdr.h.d = s3[0].b; }

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
