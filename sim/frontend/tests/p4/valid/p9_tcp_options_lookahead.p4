// The P4_16 specification's TCP options parser: a member of a struct's
// lookahead (`b.lookahead<sack_top>().length`) reads those bits of the
// packet past the cursor without consuming them.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header opt_end_t { bit<8> kind; }
header opt_nop_t { bit<8> kind; }
header opt_ss_t { bit<8> kind; bit<32> mss; }
header opt_sack_t { bit<8> kind; bit<8> length; varbit<256> sack; }
header_union opt_t { opt_end_t end; opt_nop_t nop; opt_ss_t ss; opt_sack_t sack; }
typedef opt_t[4] opt_stack;
struct sack_top { bit<8> kind; bit<8> length; }
parser OptParser(packet_in b, out opt_stack vec) {
    state start {
        transition select(b.lookahead<bit<8>>()) {
            0: p_end; 1: p_nop; 2: p_ss; 5: p_sack;
        }
    }
    state p_end { b.extract(vec.next.end); transition accept; }
    state p_nop { b.extract(vec.next.nop); transition start; }
    state p_ss { b.extract(vec.next.ss); transition start; }
    state p_sack {
        bit<8> n = b.lookahead<sack_top>().length;
        b.extract(vec.next.sack, (bit<32>)(8 * n - 16));
        transition start;
    }
}

struct headers_t { h_t h; opt_stack opts;
 }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    OptParser() op;

    state start { pkt.extract(hdr.h); op.apply(pkt, hdr.opts); transition accept;
 }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        hdr.h.a = hdr.opts[1].ss.isValid() ? hdr.opts[1].ss.mss[7:0] : 8w0;
        hdr.h.b = hdr.opts[2].sack.isValid() ? hdr.opts[2].sack.length : 8w0;

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
