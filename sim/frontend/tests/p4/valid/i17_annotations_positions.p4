// Annotations in every position p4c takes them (issue 17, family 6), and
// on any statement: an annotated statement that is not a block means the
// same as an annotated block holding it (`@atomic x = y;`, `@likely if`).
// The bodies of actions, functions and `apply` are block statements, which
// may be annotated too (`action a() @atomic { ... }`, `apply @atomic { }`).
// Also structured bodies with trailing commas, unstructured bodies holding
// any balanced tokens (strings with parentheses, brackets, operators), a
// `for ... in` loop variable with annotations, annotated switch-case
// blocks, and trailing commas in enum and match_kind lists.
// Written for Janus from the P4_16 specification's grammar (annotations,
// annotationBody) and p4c's grammar (frontends/parsers/p4/p4parser.ypp).
#include <core.p4>
#include <v1model.p4>

@brief("a byte") typedef bit<8> byte_t;
@name("Color") enum Color { Red, Green, Blue, }
@name("Code") enum bit<8> Code { One = 1, Two = 2, }
match_kind { i17_kind, }

@name("h_t") header h_t {
    @name("a") byte_t a;
    @noWarn("unused") @description("b (a \"quoted\" word)") byte_t b;
    byte_t c;
    byte_t d;
}
struct headers_t { @name("h") h_t h; }
struct meta_t { @hidden bit<8> m; }

@hidden extern bit<8> i17_ident(@name("v") in bit<8> v);
@noWarn("unused") bit<8> twice(@name("x") in bit<8> x) @atomic {
    @hidden return x + x;
}

@name("MyP") parser MyP(packet_in pkt, @name("hdr") out headers_t hdr, inout meta_t meta,
                         inout standard_metadata_t sm) {
    @name("vs") value_set<bit<8>>(2) vs;
    @name("start") state start {
        @atomic { pkt.extract(hdr.h); }
        @hidden meta.m = 1;
        transition select(hdr.h.a) { vs: accept; default: accept; }
    }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Inner(inout h_t h)(@name("k") bit<8> k) { apply { h.d = h.d + k; } }
control Bump(inout h_t h) { apply { h.d = h.d + 1; } }
control MyIng(inout headers_t hdr, inout meta_t meta, @name("sm") inout standard_metadata_t sm) {
    @name("inner") Inner(1) inner;
    @name(".set_b") action set_b(@name("v") bit<8> v) @atomic { hdr.h.b = v; }
    @hidden action nop() { }
    @name("tbl") table t {
        key = { hdr.h.a : exact @name("key_a") @hidden; }
        actions = { @tableonly set_b; @defaultonly nop; }
        @name("default") default_action = nop();
        @hidden const size = 16;
        @hidden const entries = {
            1 : set_b(0x10) @hidden;
            (2) : set_b(0x20);
        }
    }
    @atomic bit<8> local = 3;
    apply @atomic {
        sm.egress_spec = 1;
        @atomic hdr.h.c = local;
        @hidden t.apply();
        @likely if (hdr.h.a == 1) @likely { hdr.h.c = hdr.h.c + 1; } else @unlikely { hdr.h.c = hdr.h.c + 2; }
        @hidden switch (hdr.h.a) {
            1: @likely { hdr.h.d = 0x40; }
            default: @unlikely { hdr.h.d = 0x80; }
        }
        @hidden for (bit<8> i = 0; i < 2; i = i + 1) { hdr.h.d = hdr.h.d + 1; }
        @hidden for (@name("j") bit<8> j in 1 .. 2) { hdr.h.d = hdr.h.d + j; }
        @hidden inner.apply(hdr.h);
        @hidden Bump.apply(hdr.h);
        @hidden ;
        @switchstack(a "b)" c[1] + { } ; , . << >= && ::) hdr.h.c = twice(hdr.h.c);
        @pragma noWarn anything at all ( ] {
        hdr.h.c = hdr.h.c + (bit<8>)Code.One;
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { @atomic pkt.emit(hdr); } }
@pkginfo(name = "i17", version = "1.0") V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
