// lpm on a concatenated key with const entries given as masks and as a full value.
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
    action set_b(bit<8> v) { hdr.h.b = v; }
    table t {
        key = { hdr.h.a ++ hdr.h.c : lpm @name("ac"); }
        actions = { set_b; NoAction; }
        default_action = NoAction;
        const entries = {
            0x1000 &&& 0xFF00 : set_b(1);
            0x1020 &&& 0xFFF0 : set_b(2);
            0x1020 : set_b(3);
        }
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
