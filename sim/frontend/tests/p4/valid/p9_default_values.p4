// Default values with ...: enums, structs, tuples, headers (invalid for ..., valid for { ... }).
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct S { bit<32> b32; bool b; }
enum int<8> N0 { one = 1, zero = 0, two = 2 }
enum N1 { A, B, C, F }
struct T { S s; N0 n0; N1 n1; }
header H { bit<16> f1; bit<8> f2; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        N0 n0 = ...;
        N1 n1 = ...;
        S s0 = ...;
        S s1 = { 1, ... };
        S s2 = { b = true, ... };
        T t1 = { s = ..., ... };
        tuple<N0, N1> p = { ... };
        H h1 = ...;
        H h2 = { f2 = 5, ... };
        H h3 = { ... };
        hdr.h.a = (bit<8>)(bit<32>)(s1.b32 + (bit<32>)(bit<8>)(int<8>)n0) + (s0.b ? 8w1 : 8w0);
        hdr.h.b = (s2.b && n1 == N1.A && t1.n1 == N1.A && p[1] == N1.A) ? 8w1 : 8w0;
        hdr.h.c = (h1.isValid() ? 8w0x10 : 8w0) + (h2.isValid() ? h2.f2 : 8w0) + (bit<8>)h2.f1;
        hdr.h.d = h3.isValid() ? (bit<8>)h3.f1 + h3.f2 + 8w7 : 8w0;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
