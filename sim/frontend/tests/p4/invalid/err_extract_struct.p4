// extract of a struct is refused: the argument must be a header (code E0218)
// Written for Janus; the rule follows p4c's front end.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
header opt_t { bit<8> len; varbit<64> data; }
header_union u_t { h_t h; opt_t o; }
struct meta_t { bit<8> m; bool flag; }
struct headers_t { h_t h; opt_t o; u_t u; h_t[2] st; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(meta); // error: E0218
        transition accept;
    }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { sm.egress_spec = 1; } }
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
