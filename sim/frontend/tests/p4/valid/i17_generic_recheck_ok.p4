// Generic blocks and functions used with types that fit them 
// Written for Janus; the rule follows p4c's front end.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
header opt_t { bit<8> len; varbit<64> data; }
header_union u_t { h_t h; opt_t o; }
struct meta_t { bit<8> m; bool flag; }
struct headers_t { h_t h; opt_t o; u_t u; h_t[2] st; }
parser Sub<T>(packet_in pkt, out T x) {
    state start { pkt.extract(x); transition accept; }
}
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub<h_t>() sub;
    state start { sub.apply(pkt, hdr.h); pkt.extract(hdr.st.next); pkt.extract(hdr.u.h); pkt.extract(hdr.o, (bit<32>)hdr.h.a); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
T twice<T>(in T x) { return x + x; }
control Inc<T>(inout T v) { apply { v = twice(v) + 1; } }
control Outer<U>(inout U v) { Inc<U>() i; apply { i.apply(v); } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Inc<bit<8>>() a;
    Outer<bit<8>>() b;
    apply { a.apply(meta.m); b.apply(hdr.h.a); sm.egress_spec = 1; }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Put<T>(packet_out pkt, in T x) { apply { pkt.emit(x); } }
control MyDep(packet_out pkt, in headers_t hdr) {
    Put<h_t>() one;
    Put<headers_t>() all;
    apply { one.apply(pkt, hdr.h); all.apply(pkt, hdr); pkt.emit({ hdr.h, hdr.st }); }
}
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
