// Composite values through calls: a struct holding a header and a header
// stack copied by assignment (a deep copy: later writes to the copy do not
// reach the original), struct equality over nested headers, functions
// taking and returning structs, an out parameter left unassigned (a header
// out parameter comes back invalid), an action calling another action,
// a function calling a generic function, copy-out order when one variable
// is passed to two inout parameters (the later parameter's value wins).
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header out_t { bit<8> deep; bit<8> eq; bit<8> ret; bit<8> outv; bit<8> act; bit<8> alias; bit<8> gen; }
struct bag_t { in_t h; in_t[2] st; bit<8> n; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

bag_t make_bag(in in_t h, in bit<8> n) {
    bag_t b;
    b.h = h;
    b.st[0] = h;
    b.st[1].setValid();
    b.st[1].a = n;
    b.n = n;
    return b;
}

void maybe_set(in bool cond, out in_t h) {
    if (cond) {
        h.setValid();
        h.a = 0x5a;
    }
}

void two(inout bit<8> x, inout bit<8> y) {
    x = 1;
    y = 2;
}

T ident<T>(in T v) { return v; }
bit<8> via_generic(in bit<8> v) { return ident(v) + ident<bit<8>>(1); }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action inner(bit<8> v) { hdr.o.act = hdr.o.act + v; }
    action outer(bit<8> v) { inner(v); inner(v + 1); }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        bag_t b1 = make_bag(hdr.i, hdr.i.b);
        bag_t b2 = b1;
        b2.st[1].a = b2.st[1].a + 1;
        b2.h.a = 0;
        hdr.o.deep = b1.st[1].a ++ b1.h.a[3:0] == b1.n ++ hdr.i.a[3:0] ? 8w1 : 8w0;
        bag_t b3 = b1;
        bit<8> eq = 0;
        if (b1 == b3) { eq = eq | 1; }
        if (b1 != b2) { eq = eq | 2; }
        b3.st[0].setInvalid();
        if (b1 != b3) { eq = eq | 4; }
        hdr.o.eq = eq;
        hdr.o.ret = b2.st[1].a;
        in_t got;
        got.setValid();
        got.a = 0x11;
        maybe_set(hdr.i.a == 1, got);
        hdr.o.outv = got.isValid() ? got.a : 8w0xee;
        outer(hdr.i.a);
        bit<8> same = 0;
        two(same, same);
        hdr.o.alias = same;
        hdr.o.gen = via_generic(hdr.i.b);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
