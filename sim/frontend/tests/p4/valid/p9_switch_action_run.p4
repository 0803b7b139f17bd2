// switch on t.apply().action_run with default.
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
    action a1() { hdr.h.b = 1; }
    action a2(bit<8> v) { hdr.h.b = v; }
    table t { key = { hdr.h.a : exact; } actions = { a1; a2; NoAction; }
        const entries = { 1 : a1(); 2 : a2(0x22); }
        default_action = NoAction(); }

    apply {
        sm.egress_spec = 1;
        switch (t.apply().action_run) {
            a1: { hdr.h.c = 0xa1; }
            a2: { hdr.h.c = 0xa2; }
            default: { hdr.h.c = 0xff; }
        }

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
