// return and exit: `return;` inside nested ifs of an action (the rest of
// the action is skipped), exit inside a nested control instance ends the
// whole ingress control (statements after the nested apply in the caller
// do not run) while egress still runs, exit from a table's action, a
// function returning from inside a loop, return in a void function.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header out_t { bit<8> act; bit<8> inner; bit<8> outer; bit<8> eg; bit<8> found; bit<8> v; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

bit<8> find_first_set(in bit<8> x) {
    for (bit<8> i = 0; i < 8; i = i + 1) {
        if ((x >> i)[0:0] == 1) { return i; }
    }
    return 0xff;
}

void set_v(inout out_t o, in bit<8> x) {
    if (x == 0) { return; }
    o.v = x;
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Inner(inout headers_t hdr) {
    apply {
        hdr.o.inner = 1;
        if (hdr.i.b == 0xee) { exit; }
        hdr.o.inner = 2;
    }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Inner() inner;
    action early(bit<8> x) {
        hdr.o.act = 1;
        if (x > 0x10) {
            if (x > 0x20) { return; }
            hdr.o.act = 2;
            return;
        }
        hdr.o.act = 3;
    }
    action ex() { hdr.o.act = 0xe0; exit; }
    table t {
        key = { hdr.i.a : exact; }
        actions = { ex; NoAction; }
        const entries = { 0xff : ex(); }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        early(hdr.i.a);
        t.apply();
        hdr.o.found = find_first_set(hdr.i.b);
        set_v(hdr.o, hdr.i.a & 0x0f);
        inner.apply(hdr);
        hdr.o.outer = 0x0b;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { hdr.o.eg = 0x99; }
}
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
