// Table keys that are slices, concatenations and masked expressions.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.d = v; }
    table t {
        key = { hdr.h.a[7:4] : exact @name("hi"); hdr.h.b ++ hdr.h.c : ternary @name("bc"); hdr.h.a & 0x0f : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
        const entries = { (0xA, 0x0102 &&& 0xFFFF, 0x5) : set(0x77); }
    }

    apply {
        sm.egress_spec = 1;
        t.apply();

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
