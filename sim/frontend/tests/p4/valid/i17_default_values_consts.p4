// `...` as a default initialiser (issue 17, family 3): the value of a
// constant (`const S C = ...;`), a struct, header or tuple constant with
// some fields given (`{ x = 1, ... }`, `{ 1, ... }`), nested ones, `{#}`
// for headers and header unions, and the same forms for variables and
// assignments. Defaults are p4c's (getDefaultValue): 0, false,
// error.NoError, the first member of an enum, 0 for a serializable enum,
// invalid headers and unions.
// Written for Janus from the P4_16 specification (initializing with
// default values) and p4c's frontends/p4/defaultValues.cpp.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
header_union u_t { h_t x; h_t y; }
enum Color { Red, Green, Blue }
enum bit<8> Code { One = 1, Two = 2 }
struct inner_t { bit<8> v; bool flag; Color c; Code k; error e; }
struct outer_t { inner_t in1; h_t h; bit<16> w; }

const bit<8> ZERO = ...;
const inner_t DEF = ...;
const inner_t SOME = { v = 7, ... };
const outer_t NESTED = { in1 = { v = 3, flag = true, ... }, w = 0x0102, ... };
const tuple<bit<8>, bool, Color> TUP = { 9, ... };
const h_t HDR = { a = 0x40, ... };
const h_t NOHDR = {#};
const u_t NOU = {#};

header out_t { bit<8> r0; bit<8> r1; bit<8> r2; bit<8> r3; bit<8> r4; bit<8> r5; bit<8> r6; bit<8> r7; }
struct headers_t { out_t o; h_t h; u_t u; }
struct meta_t { outer_t m; }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.o); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        // Constants: defaults where nothing is given.
        hdr.o.r0 = ZERO + DEF.v + (DEF.flag ? 8w0x80 : 8w0)
            + (DEF.c == Color.Red ? 8w1 : 8w0x40) + (DEF.e == error.NoError ? 8w2 : 8w0x40)
            + (bit<8>)DEF.k;
        hdr.o.r1 = SOME.v + (SOME.flag ? 8w0x80 : 8w0);
        hdr.o.r2 = NESTED.in1.v + (NESTED.in1.flag ? 8w0x10 : 8w0) + (bit<8>)NESTED.w
            + (NESTED.h.isValid() ? 8w0x80 : 8w0);
        hdr.o.r3 = TUP[0] + (TUP[1] ? 8w0x80 : 8w0) + (TUP[2] == Color.Red ? 8w0x20 : 8w0);
        hdr.o.r4 = (HDR.isValid() ? HDR.a + HDR.b : 8w0) + (NOHDR.isValid() ? 8w1 : 8w0)
            + (NOU.isValid() ? 8w2 : 8w0);
        // The same forms on variables and in assignments.
        outer_t v = { w = 5, ... };
        v.in1 = { k = Code.Two, ... };
        hdr.h = HDR;
        hdr.h = { b = 3, ... };
        hdr.u = NOU;
        hdr.u.x = { a = 1, ... };
        hdr.o.r5 = (bit<8>)v.w + (bit<8>)v.in1.k + (v.h.isValid() ? 8w0x80 : 8w0);
        hdr.o.r6 = (hdr.h.isValid() ? hdr.h.a + hdr.h.b : 8w0xff)
            + (hdr.u.x.isValid() ? 8w0x10 : 8w0);
        meta.m = NESTED;
        meta.m.h = ...;
        hdr.o.r7 = meta.m.in1.v + (meta.m.h.isValid() ? 8w0x80 : 8w0);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.o); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
