// Expressions: side effects inside ?: branches and short-circuit && / ||
// operands (only the evaluated one runs), left-to-right evaluation of call
// arguments and operands, wrap-around constants, shifts at and past the
// width, slices of slices, casts of negative integers, header and struct
// equality, bool <-> bit<1>, !, ~, ^, static_assert, log_msg.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header out_t {
    bit<8> cnt; bit<8> tern; bit<8> order; bit<8> wrap; bit<8> shl;
    bit<8> slice; bit<8> neg4; bit<8> heq; bit<8> seq; bit<8> bits;
    bit<8> sneg; bit<16> wshl;
}
struct pair_t { bit<8> x; bool y; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

const bool CHECKED = static_assert(8w255 + 8w1 == 8w0, "wrap-around");

bit<8> bump(inout bit<8> c, in bit<8> by) {
    c = c + by;
    return c;
}

bit<8> digit(inout bit<8> acc, in bit<8> d) {
    acc = acc * 10 + d;
    return d;
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        log_msg("lang_expr_effects: ingress");
        hdr.o.setValid();
        bit<8> cnt = 0;
        // && and || evaluate their right operand only when needed.
        if (hdr.i.a == 0 && bump(cnt, 1) == 1) { cnt = cnt + 0x10; }
        if (hdr.i.a == 0 || bump(cnt, 2) == 0xff) { cnt = cnt + 0x20; }
        hdr.o.cnt = cnt;
        // Only the chosen branch of ?: runs.
        bit<8> t = 0;
        hdr.o.tern = (hdr.i.b > 8w0x80) ? bump(t, 3) : bump(t, 5) + 8w0x10;
        // Operands and arguments are evaluated left to right.
        bit<8> acc = 0;
        bit<8> s = digit(acc, 1) + digit(acc, 2) * digit(acc, 3);
        hdr.o.order = acc + s;
        hdr.o.wrap = 8w255 + 8w1 + hdr.i.a;
        hdr.o.shl = (hdr.i.a << 8) | (hdr.i.a << 7) | (8w1 << 8w7);
        hdr.o.wshl = 16w1 << 15;
        hdr.o.slice = (bit<8>)(hdr.i.a[7:4][2:1] ++ hdr.i.b[7:0][3:0][3:2]);
        hdr.o.neg4 = (bit<8>)(bit<4>)-3;
        in_t h1 = hdr.i;
        in_t h2 = { a = hdr.i.a, b = hdr.i.b };
        in_t h3;
        in_t h4;
        bit<8> heq = 0;
        if (h1 == h2) { heq = heq | 1; }
        if (h3 == h4) { heq = heq | 2; }
        if (h1 != h3) { heq = heq | 4; }
        h2.b = h2.b + 1;
        if (h1 == h2) { heq = heq | 8; }
        hdr.o.heq = heq;
        pair_t p1 = { x = hdr.i.a, y = true };
        pair_t p2 = { x = hdr.i.a, y = hdr.i.b != 0 };
        hdr.o.seq = (p1 == p2) ? 8w1 : ((p1 != p2) ? 8w2 : 8w3);
        bool bb = hdr.i.a[0:0] == 1;
        bit<1> b1 = (bit<1>)bb;
        bit<1> nb = (bit<1>)!bb;
        hdr.o.bits = (~hdr.i.a ^ hdr.i.b) & 8w0xf0 | (bit<8>)(b1 ++ nb);
        int<8> sv = -8s127;
        hdr.o.sneg = (bit<8>)(sv - 1) ^ (bit<8>)(int<8>)(-1);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
