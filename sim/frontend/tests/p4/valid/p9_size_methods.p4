// minSizeInBits/maxSizeInBits/maxSizeInBytes of varbit headers, unions, structs, typedefs and new types.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header V { bit<8> len; varbit<16> data; }
header X { bit<16> v; }
header_union U { X x; h_t h; }
struct W { X x; bool f; int<3> i; }
typedef bit<12> B12;
type bit<7> N7;

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.h.a = (bit<8>)V.minSizeInBits();
        hdr.h.b = (bit<8>)V.maxSizeInBits();
        hdr.h.c = (bit<8>)(U.minSizeInBits() + W.maxSizeInBytes() + B12.minSizeInBits() + N7.maxSizeInBits());
        U u; hdr.h.d = (bit<8>)u.maxSizeInBytes();

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
