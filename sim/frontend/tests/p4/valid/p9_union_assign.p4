// Header union assignment from a header, a list, another union, (U){#} and ==.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header H1 { bit<8> f; }
header H2 { bit<16> g; }
header_union U { H1 h1; H2 h2; }

struct headers_t { h_t h; U u;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        U l;
        H1 my = { 8w3 };
        l.h1 = my;
        l.h2 = { 16w0x0102 };
        hdr.u = l;
        U l2 = (U){#};
        if (l2 == {#} && !l2.isValid()) { hdr.h.a = 1; }
        if (hdr.u == l) { hdr.h.b = 1; }
        l.h2 = (H2){#};
        if (!l.isValid()) { hdr.h.c = 1; }

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
