// Header stack: next/last/lastIndex in a parser loop, size, push_front and pop_front.
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }

struct headers_t { h_t h; h_t[3] s;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition next;
 }
    state next {
        pkt.extract(hdr.s.next);
        transition select(hdr.s.last.a, hdr.s.lastIndex) {
            (0, _): accept;
            (_, 2): accept;
            default: next;
        }
    }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.h.a = 2;
        hdr.h.b = (bit<8>)hdr.s.size;
        hdr.s.push_front(1);
        hdr.s[0].setValid();
        hdr.s[0].a = 0xee;
        hdr.s.pop_front(1);
        hdr.s.push_front(2);
        hdr.h.c = hdr.s[0].isValid() ? 8w1 : 8w0;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
