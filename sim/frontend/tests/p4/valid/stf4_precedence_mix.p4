// STF rule (P4_16 spec 8 expressions, precedence): mostly C's, except that
// `&`, `^`, `|` bind tighter than comparisons (`a & b == c` is
// `(a & b) == c`), and `++` has the precedence of `+` (left-associative with
// it: `p + q ++ r` is `(p + q) ++ r`). Unary `-`/`~` bind tighter than
// binary operators; `+` before `<<`; `&` before `^` before `|`; `-` and `>>`
// are left-associative; `?:` is right-associative; `==` binds looser than
// `<`; `&&` tighter than `||`; a cast binds tighter than `>>`.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}
header out_t {
    bit<8> r1;   // a + b << 1
    bit<8> r2;   // a[3:0] + b[3:0] ++ c[3:0]
    bit<8> r3;   // a & b == c
    bit<8> r4;   // ~a & b
    bit<8> r5;   // -a + b
    bit<8> r6;   // a - b - c
    bit<8> r7;   // a | b ^ c & 0x0f
    bit<8> r8;   // a > b ? 1 : a == b ? 2 : 3
    bit<8> r9;   // a << 1 >> 2
    bit<8> r10;  // a < b == b > c
    bit<8> r11;  // a == 0 && b != 0 || c == 1
    bit<8> r12;  // (bit<8>)(int<8>)a >> 1  (cast first, then a logical shift)
    bit<8> r13;  // a * b + c * 2
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser PmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control PmVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<8> a = hdr.i.a;
        bit<8> b = hdr.i.b;
        bit<8> c = hdr.i.c;
        hdr.o.setValid();
        hdr.o.r1 = a + b << 1;
        hdr.o.r2 = a[3:0] + b[3:0] ++ c[3:0];
        hdr.o.r3 = a & b == c ? 8w1 : 8w0;
        hdr.o.r4 = ~a & b;
        hdr.o.r5 = -a + b;
        hdr.o.r6 = a - b - c;
        hdr.o.r7 = a | b ^ c & 0x0f;
        hdr.o.r8 = a > b ? 8w1 : a == b ? 8w2 : 8w3;
        hdr.o.r9 = a << 1 >> 2;
        hdr.o.r10 = a < b == b > c ? 8w1 : 8w0;
        hdr.o.r11 = a == 0 && b != 0 || c == 1 ? 8w1 : 8w0;
        hdr.o.r12 = (bit<8>)(int<8>)a >> 1;
        hdr.o.r13 = a * b + c * 2;
        sm.egress_spec = 2;
    }
}

control PmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control PmCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control PmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(PmParser(), PmVerify(), PmIngress(), PmEgress(), PmCompute(),
         PmDeparser()) main;
