// A header with more than one varbit field cannot be extracted with a length (code E0211)
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header v_t { varbit<8> a; varbit<8> b; }

struct headers_t { h_t h; v_t v; }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.v, 8); // error: E0211
        transition accept;
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
