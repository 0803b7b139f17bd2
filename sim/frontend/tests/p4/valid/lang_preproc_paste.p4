// More preprocessor: token pasting (##) to build names, stringification
// (#) in an annotation, variadic macros (__VA_ARGS__), `defined X` without
// parentheses, !defined, nested conditionals, arithmetic and shifts in
// #if, object macros used inside function-like macro bodies, a macro
// argument that is itself a macro call, a parenthesised argument with a
// comma.
#include <core.p4>
#include <v1model.p4>

#define FIELD(n) f_##n
#define DECL_FIELD(w, n) bit<w> FIELD(n);
#define NAMED(x) @name(#x)
#define SUM(first, ...) (first + add_all(__VA_ARGS__))
#define ONE 1
#define SHIFTED (ONE << 4)

#if defined ONE && !defined(TWO)
#  if SHIFTED == 16 && 0x10 == 16
#    define MODE 8w0x16
#  else
#    error "nested #if took the wrong branch"
#  endif
#else
#  define MODE 8w0
#endif

#ifdef MODE
#  ifndef ONE
#    error "ONE must be defined"
#  endif
#endif

header in_t { bit<8> a; bit<8> b; bit<8> c; }
header out_t {
    DECL_FIELD(8, one)
    DECL_FIELD(8, two)
    DECL_FIELD(8, three)
    bit<8> mode;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

bit<8> add_all(in bit<8> x, in bit<8> y) { return x + y; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

#define PICK(pair) pair
control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action set_two(bit<8> v) { hdr.o.FIELD(two) = v; }
    NAMED(two_table) table t {
        key = { hdr.i.a : exact; }
        actions = { set_two; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.FIELD(one) = SUM(hdr.i.a, hdr.i.b, hdr.i.c);
        t.apply();
        hdr.o.f_three = PICK((add_all(hdr.i.b, ONE)));
        hdr.o.mode = MODE;
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
