// Annotations: @pure, @noSideEffects and @deprecated extern functions, @noWarn, @hidden, @atomic block.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
@pure extern bit<8> pure_fn(in bit<8> x);
@noSideEffects extern bit<8> nse_fn(in bit<8> x);
@deprecated("use other") extern void old_fn(in bit<8> x);

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    @noWarn("unused") bit<8> unused_local;
    @hidden action hid() { hdr.h.b = 1; }

    apply {
        sm.egress_spec = 1;
        @atomic { hdr.h.c = hdr.h.a; }
        hid();

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
