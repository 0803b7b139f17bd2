// Literals: binary, 0d decimal, 0o octal, signed widths, _ separators.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
const bit<16> A = 16w0b1010_1010;
const bit<16> B = 0d1_000;
const bit<16> C = 16w0o17;
const int<8> D = -8s1;
const int<8> E = 8s0x7F;
const bit<8> F = 8w0xFf;
const int G = 0x_ff;

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.h.a = (bit<8>)A;
        hdr.h.b = (bit<8>)B;
        hdr.h.c = (bit<8>)C + (bit<8>)D + (bit<8>)E;
        hdr.h.d = F - (bit<8>)G;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
