// Generic structs and headers specialised inline and through typedef.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct pair<T1, T2> { T1 first; T2 second; }
header gh<T> { T val; }
typedef pair<bit<8>, bit<16>> p816;
struct holder { pair<bit<8>, bit<8>> p; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        p816 p = { first = hdr.h.a, second = 16w0x0102 };
        holder h2 = { p = { first = 1, second = 2 } };
        pair<bool, bit<8>> q = { true, 9 };
        gh<bit<8>> g;
        g.setValid();
        g.val = q.first ? q.second : 8w0;
        hdr.h.b = p.second[7:0] + h2.p.first + g.val;
        hdr.h.c = p.first;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
