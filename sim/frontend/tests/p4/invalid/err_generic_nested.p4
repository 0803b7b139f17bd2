// a generic control used by another generic control is checked with the outer use's types (code E0202)
// Written for Janus; the rule follows p4c's front end.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
header opt_t { bit<8> len; varbit<64> data; }
header_union u_t { h_t h; opt_t o; }
struct meta_t { bit<8> m; bool flag; }
struct headers_t { h_t h; opt_t o; u_t u; h_t[2] st; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Inner<T>(inout T v) {
    apply {
        v = v + 1; // error: E0202
    }
}
control Outer<U>(inout U v) {
    Inner<U>() i;
    apply { i.apply(v); }
}
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Outer<bool>() o;
    apply { o.apply(meta.flag); }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
