// Preprocessor breadth: function-like macros (nested, multi-line), #if with
// arithmetic and defined(), #elif chains, #ifdef/#ifndef, #undef and
// redefinition, #error in a dead branch, an include guard, #line.
#include <core.p4>
#include <v1model.p4>

#ifndef LANG_GUARD
#define LANG_GUARD
header in_t { bit<8> a; bit<8> b; }
#endif
#ifndef LANG_GUARD
header in_t { bit<8> a; }
#endif

#define WIDTH 8
#define ADD(x, y) ((x) + (y))
#define TWICE(x) ADD(x, x)
#define SET_OUT(f, v) \
    hdr.o.f = \
        (v)
#define LEVEL 3

#if LEVEL > 5
#error "dead branch: level too high"
#elif LEVEL == 3 && defined(WIDTH)
#define PICK 8w3
#elif LEVEL == 3
#define PICK 8w4
#else
#define PICK 8w5
#endif

#ifdef NOT_DEFINED_ANYWHERE
#error "NOT_DEFINED_ANYWHERE must not be defined"
#endif

#define TMP 8w10
#undef TMP
#define TMP 8w20

#if 0
this is not P4 at all @@@ and must be skipped
#endif

#line 100 "renamed.p4"
header out_t { bit<WIDTH> sum; bit<WIDTH> twice; bit<8> pick; bit<8> tmp; bit<8> nested; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        SET_OUT(sum, ADD(hdr.i.a, hdr.i.b));
        SET_OUT(twice, TWICE(hdr.i.a));
        SET_OUT(pick, PICK);
        SET_OUT(tmp, TMP);
        SET_OUT(nested, TWICE(TWICE(hdr.i.b)));
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
