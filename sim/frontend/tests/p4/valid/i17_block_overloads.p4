// Parsers and controls declared more than once under one name, with
// different parameter counts (issue 17, family 5): p4c accepts such
// overloads and picks, at each instantiation, the declaration whose
// constructor parameters take the arguments given (the P4_16 specification
// since 1.2.4 forbids them, but p4c and programs written for it keep
// them). Two declarations that would both fit one instantiation are an
// error there, as in p4c ("multiple matching declarations").
// Written for Janus from p4c's behaviour (p4lang/p4-spec issue 1055).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers_t { h_t h; }
struct meta_t { }

parser Sub(packet_in pkt, out h_t h) {
    state start { pkt.extract(h); transition accept; }
}
parser Sub(packet_in pkt, out h_t h)(bit<8> mark) {
    state start { pkt.extract(h); h.d = mark; transition accept; }
}
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub(0x44) marked;
    state start { marked.apply(pkt, hdr.h); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }

control Set(inout h_t h) { apply { h.a = 1; } }
control Set(inout h_t h)(bit<8> v) { apply { h.b = v; } }
control Set(inout h_t h)(bit<8> v, bit<8> w) { apply { h.c = v + w; } }

control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Set() none;
    Set(0x22) one;
    Set(0x30, 3) two;
    apply {
        sm.egress_spec = 1;
        none.apply(hdr.h);
        one.apply(hdr.h);
        two.apply(hdr.h);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
