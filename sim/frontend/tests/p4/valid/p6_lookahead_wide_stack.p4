// Parser details: select on a slice of a 96-bit lookahead, a select on
// the whole wide lookahead value with a mask, extract into stack elements
// by constant index out of order (st[2] before st[0]: `next` is not moved
// by indexed extracts, spec 8.18), then `st.next`, and a parser local
// initialised from another local and updated across states.
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header o_t { bit<8> path; bit<8> cnt; bit<8> w; }
struct headers_t { o_t o; e_t[3] st; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    bit<8> one = 1;
    bit<8> cnt = one + one;
    state start {
        hdr.o.setValid();
        transition select(pkt.lookahead<bit<96>>()[95:88]) {
            0xaa: wide;
            default: idx;
        }
    }
    state wide {
        transition select(pkt.lookahead<bit<96>>()) {
            96w0xaa0000000000000000000001 &&& 96w0xff00000000000000000000ff: wide_one;
            default: idx;
        }
    }
    state wide_one {
        hdr.o.w = 1;
        cnt = cnt + one;
        transition idx;
    }
    state idx {
        pkt.extract(hdr.st[2]);
        pkt.extract(hdr.st[0]);
        cnt = cnt + one;
        hdr.o.path = hdr.st[2].v;
        transition select(hdr.st[0].v) {
            0: accept;
            default: more;
        }
    }
    state more {
        pkt.extract(hdr.st.next);
        hdr.o.cnt = cnt;
        transition accept;
    }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.o); pkt.emit(hdr.st); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
