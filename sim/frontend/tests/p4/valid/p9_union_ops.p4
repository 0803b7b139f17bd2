// Header unions: setValid on one member invalidates the other; {#} for a union local.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header u8_t { bit<8> v; }
header u16_t { bit<16> v; }
header_union u_t { u8_t a; u16_t b; }

struct headers_t { h_t h; u_t u;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.u.a.setValid();
        hdr.u.a.v = 7;
        hdr.u.b.setValid();
        hdr.u.b.v = 0x0102;
        if (!hdr.u.a.isValid() && hdr.u.isValid()) { hdr.h.a = 1; }
        u_t l = {#};
        if (!l.isValid()) { hdr.h.b = 2; }

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
