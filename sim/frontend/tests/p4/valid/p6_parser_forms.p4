// Parser forms: states declared after their use and an unreachable state,
// a sub-parser with in/out/inout arguments, `lookahead<bit<72>>()` wider
// than 64 bits, extract into stack elements by constant index, `verify`
// with a user error, parser locals initialised from other locals (spec 13).
#include <core.p4>
#include <v1model.p4>

error { BadKind }
header t_t { bit<8> kind; bit<8> len; }
header e_t { bit<8> v; }
header o_t { bit<8> peek_hi; bit<8> peek_lo; bit<8> local; bit<8> sub; }
struct headers_t { t_t t; e_t[3] st; o_t o; }
struct meta_t { bit<8> depth; }

parser Sub(packet_in pkt, out e_t e, inout bit<8> depth, in bit<8> step) {
    state start {
        pkt.extract(e);
        depth = depth + step;
        transition accept;
    }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    Sub() sub;
    bit<8> base = 3;
    bit<8> twice = base + base;
    state start {
        bit<72> peek = pkt.lookahead<bit<72>>();
        hdr.o.setValid();
        hdr.o.peek_hi = peek[71:64];
        hdr.o.peek_lo = peek[7:0];
        bit<8> derived = twice + 1;
        hdr.o.local = derived;
        pkt.extract(hdr.t);
        verify(hdr.t.kind != 0xbb, error.BadKind);
        transition select(hdr.t.kind) {
            1: one;
            2: two;
            default: accept;
        }
    }
    state two {
        pkt.extract(hdr.st[1]);
        transition one;
    }
    state one {
        sub.apply(pkt, hdr.st[0], m.depth, twice);
        hdr.o.sub = m.depth;
        transition accept;
    }
    state never {
        pkt.extract(hdr.st[2]);
        transition reject;
    }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (sm.parser_error == error.BadKind) { hdr.o.sub = 0xbd; }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); pkt.emit(hdr.t); pkt.emit(hdr.st); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
