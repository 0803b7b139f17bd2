// STF rule (P4_16 spec 8.11 tuple expressions, 8.12 structure-valued
// expressions, 8.13 structs): a list expression `{ e1, e2 }` initialises a
// struct field by field in declaration order; a structure-valued expression
// `{ y = .., x = .. }` by name in any order; they nest (a member of struct
// type gets its own initializer); `==` on structs compares field by field.
// (Comparing with a structure-valued expression directly:
// stf4_struct_eq_literal.)
// Assigning a list expression to a header fills it in order and makes it
// valid. The values are computed from packet fields at run time.
#include <core.p4>
#include <v1model.p4>

struct pair_t {
    bit<8>  x;
    bit<16> y;
}
struct quad_t {
    pair_t p;
    bool   b;
    bit<4> n;
    bit<4> m;
}

header in_t { bit<8> v; }
header out_t {
    bit<8>  ax;
    bit<16> ay;
    bit<8>  cx;
    bit<16> cy;
    bit<8>  qx;
    bit<16> qy;
    bit<8>  nm;
    bit<8>  flags;
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser LsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control LsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control LsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        pair_t a = { hdr.i.v, 16w0x1234 };
        pair_t c = { y = (bit<16>)hdr.i.v << 4, x = hdr.i.v + 1 };
        quad_t q = { p = { y = a.y + c.y, x = c.x ^ a.x },
                     b = hdr.i.v == 3,
                     n = 4w0xa,
                     m = hdr.i.v[3:0] };
        bit<8> flags = 0;
        pair_t k = (pair_t){ x = 3, y = 0x1234 };
        if (a == k) {
            flags = flags | 1;
        }
        if (q.b) {
            flags = flags | 2;
        }
        hdr.o = { a.x, a.y, c.x, c.y, q.p.x, q.p.y, q.n ++ q.m, flags };
        sm.egress_spec = 2;
    }
}

control LsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(LsParser(), LsVerify(), LsIngress(), LsEgress(), LsCompute(),
         LsDeparser()) main;
