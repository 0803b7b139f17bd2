// select on a tuple with masks, ranges, _, a value set and default; a select without default rejecting.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header x_t { bit<8> v; }

struct headers_t { h_t h; x_t x;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<8>>(4) vs;

    state start { pkt.extract(hdr.h); transition select(hdr.h.a, hdr.h.b) {
            (0x10 &&& 0xF0, _): masked;
            (1 .. 5, 0): ranged;
            (_, 0xAA): accept;
            (vs, _): masked;
            default: reject;
        }
 }
    state masked { hdr.h.c = 0x11; transition accept; }
    state ranged { hdr.h.c = 0x22; transition select(hdr.h.d) { 0: accept; 1: reject; 2: accept; } }

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
