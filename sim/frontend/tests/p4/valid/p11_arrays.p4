// Arrays of any element type (P4_16 1.2.5 generalises header stacks to
// `T[N]`): `bit<8>[4]`, arrays of structs, of bools, nested arrays
// (`bit<8>[2][3]` is 3 elements of `bit<8>[2]`), in metadata, in parser
// and control locals, as action parameters; list and `...` initialisers;
// run-time indices as values and as assignment targets; `==` element by
// element and against a list; `for (x in a)`; an element as a table key.
// An index out of range reads 0 and a write to it does nothing, as for
// header stacks.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> i;    // an index
    bit<8> j;    // another
    bit<8> v;
    bit<8> r0;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
}

struct headers_t {
    h_t h;
}

struct pair_t {
    bit<8> x;
    bit<8> y;
}

struct meta_t {
    bit<8>[4]    a;
    pair_t[2]    p;
    bit<8>[2][3] n;
    bool[3]      flags;
    bit<8>       from_parser;
}

parser ArParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    bit<8>[2] seen;
    state start {
        pkt.extract(hdr.h);
        seen[hdr.h.j[0:0]] = 5;
        meta.from_parser = seen[1];
        transition accept;
    }
}

control ArVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

action bump(inout bit<8>[4] arr, in bit<8> k) {
    arr[k] = arr[k] + 1;
}

bit<8> total(in bit<8>[4] arr) {
    bit<8> s = 0;
    for (bit<8> x in arr) {
        s = s + x;
    }
    return s;
}

control ArIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    bit<8>[4] loc = { 1, 2, ... };
    bit<8>[4] zeros = ...;
    pair_t[2] pp = { { 1, 2 }, { x = 3, y = 4 } };

    action set_r3(bit<8> v) { hdr.h.r3 = v; }
    table by_elem {
        key = { meta.a[1] : exact; }
        actions = { set_r3; NoAction; }
        const entries = {
            0x13 : set_r3(0xee);
        }
        default_action = NoAction();
    }

    apply {
        sm.egress_spec = 1;
        meta.a = { 0x10, 0x11, 0x12, 0x13 };
        // Run-time index as a target and as a value; i = 7 is out of range.
        meta.a[hdr.h.i] = hdr.h.v;
        hdr.h.r0 = meta.a[hdr.h.j] + zeros[hdr.h.j];
        // Arrays of structs, nested arrays, bools.
        meta.p = pp;
        meta.p[hdr.h.j].y = 9;
        meta.n[2][1] = 4;
        meta.n[hdr.h.i][hdr.h.j] = 6;
        meta.flags[hdr.h.j] = true;
        // An action's inout array parameter; a function over an array.
        bump(loc, hdr.h.j);
        hdr.h.r1 = total(loc) + meta.n[2][1] + meta.n[0][1] + meta.from_parser;
        hdr.h.r2 = 0;
        if (meta.p == pp) {
            hdr.h.r2 = 0x80;
        }
        if (meta.flags[1]) {
            hdr.h.r2 = hdr.h.r2 | meta.p[1].y;
        }
        // Against a list, element by element.
        if (zeros == { 0, 0, 0, 0 } && meta.a != { 0, 0, 0, 0 }) {
            hdr.h.r2 = hdr.h.r2 | 0x40;
        }
        by_elem.apply();
    }
}

control ArEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ArCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ArDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(ArParser(), ArVerify(), ArIngress(), ArEgress(), ArCompute(),
         ArDeparser()) main;
