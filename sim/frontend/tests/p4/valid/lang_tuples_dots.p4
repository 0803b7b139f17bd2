// Tuples, list and structure expressions: tuple<...> variables indexed by
// constants, tuple equality, list expressions assigned to structs and
// headers (the header becomes valid), {#} to make a header or union
// invalid, `...` in structure-valued expressions (remaining fields get
// their default values), nested struct initialisers.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header x_t { bit<8> x; bit<8> y; }
header_union xu { x_t x1; in_t x2; }
header out_t {
    bit<8> t0; bit<8> t1; bit<8> teq; bit<8> lst; bit<8> dots; bit<8> dflag;
    bit<8> nested; bit<8> valid;
}
struct inner_t { bit<8> p; bit<8> q; }
struct outer_t { inner_t in1; bit<8> r; bool f; }
struct headers_t { in_t i; x_t x; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); pkt.extract(hdr.x); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        tuple<bit<8>, bit<8>> t = { hdr.i.a, hdr.i.b + 1 };
        hdr.o.t0 = t[0];
        hdr.o.t1 = t[1];
        tuple<bit<8>, bit<8>> u = { hdr.i.a, hdr.i.b };
        hdr.o.teq = (t == u) ? 8w1 : ((t != u) ? 8w2 : 8w3);
        inner_t s;
        s = { hdr.i.b, hdr.i.a };
        hdr.o.lst = s.p - s.q;
        outer_t d = { r = 8w7, ... };
        hdr.o.dots = d.r + d.in1.p + d.in1.q;
        hdr.o.dflag = d.f ? 8w1 : 8w0;
        outer_t n = { in1 = { p = 8w1, q = 8w2 }, r = 8w3, f = true };
        hdr.o.nested = n.in1.p + n.in1.q + n.r + (n.f ? 8w0x10 : 8w0);
        x_t tmp = {#};
        xu un;
        un.x1 = { 8w1, 8w2 };
        bit<8> valid = 0;
        if (un.isValid()) { valid = valid | 1; }
        un = {#};
        if (!un.isValid()) { valid = valid | 2; }
        if (!tmp.isValid()) { valid = valid | 4; }
        if (hdr.i.a == 0) {
            hdr.x = {#};
        } else {
            hdr.x = { 8w0xaa, hdr.i.a };
        }
        hdr.o.valid = valid;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.x); pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
