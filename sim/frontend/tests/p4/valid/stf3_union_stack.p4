// P4_16 spec (header stacks of header unions): `extract(stk.next.m)`
// fills the next element through member m and advances nextIndex;
// stk[i].isValid() is the union's validity; setValid() on another member
// of an element switches that element's member; emit(stk) emits each
// valid element's valid member in index order. (pop_front on a union
// stack: stf3_union_stack_pop.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> n;
}
header nop_t { bit<8> kind; }
header val_t {
    bit<8>  kind;
    bit<16> v;
}
header_union opt_u {
    nop_t nop;
    val_t val;
}

struct headers_t {
    h_t      h;
    opt_u[4] opts;
}
struct meta_t { }

parser UsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition opts;
    }
    state opts {
        transition select(pkt.lookahead<bit<8>>()) {
            1: parse_nop;
            2: parse_val;
            default: accept;
        }
    }
    state parse_nop { pkt.extract(hdr.opts.next.nop); transition opts; }
    state parse_val { pkt.extract(hdr.opts.next.val); transition opts; }
}

control UsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action visit(inout opt_u o, inout bit<8> n) {
        if (o.isValid()) { n = n + 1; }
        if (o.val.isValid()) { o.val.v = o.val.v + 1; }
    }
    apply {
        if (hdr.h.op == 1) {
            hdr.opts[0].nop.setValid();
            hdr.opts[0].nop.kind = 1;
        }
        bit<8> n = 0;
        visit(hdr.opts[0], n);
        visit(hdr.opts[1], n);
        visit(hdr.opts[2], n);
        visit(hdr.opts[3], n);
        hdr.h.n = n;
        sm.egress_spec = 2;
    }
}

control UsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control UsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control UsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.opts);
    }
}

V1Switch(UsParser(), UsVerify(), Ing(), UsEgress(), UsCompute(),
         UsDeparser()) main;
