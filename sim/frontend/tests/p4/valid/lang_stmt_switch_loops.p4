// Statements: switch on bit values and on enum values with fall-through
// labels, default and empty cases; the same name declared in sibling
// blocks and again after them (block-scoped); for loops
// (counted and over a list, with break and continue); return inside nested
// ifs of a function; an action called from apply with arguments; exit from
// an action ends the control and skips the rest of ingress.
#include <core.p4>
#include <v1model.p4>

enum Kind { SMALL, MEDIUM, LARGE, HUGE }

header in_t { bit<8> a; bit<8> b; }
header out_t {
    bit<8> sw; bit<8> esw; bit<8> shadow; bit<8> loop; bit<8> list;
    bit<8> cls; bit<8> act; bit<8> after;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

bit<8> classify(in bit<8> v) {
    if (v < 0x80) {
        if (v < 0x10) {
            return 1;
        }
        return 2;
    } else {
        if (v == 0xff) {
            return 4;
        }
    }
    return 3;
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action add_to(inout bit<8> dst, bit<8> v) { dst = dst + v; }
    action stop_here() { hdr.o.after = 0xee; exit; }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        switch (hdr.i.a) {
            1:
            2: { hdr.o.sw = 0x12; }
            3: { }
            4: { hdr.o.sw = 0x04; }
            default: { hdr.o.sw = 0xdd; }
        }
        Kind k = Kind.HUGE;
        if (hdr.i.a < 2) { k = Kind.SMALL; }
        else if (hdr.i.a < 4) { k = Kind.MEDIUM; }
        else if (hdr.i.a < 8) { k = Kind.LARGE; }
        switch (k) {
            Kind.SMALL:
            Kind.MEDIUM: { hdr.o.esw = 0x01; }
            Kind.LARGE: { hdr.o.esw = 0x02; }
            default: { hdr.o.esw = 0x0f; }
        }
        {
            bit<8> x = 7;
            hdr.o.shadow = x;
        }
        {
            bit<8> x = 5;
            {
                bit<8> y = x * 16;
                hdr.o.shadow = hdr.o.shadow + y;
            }
        }
        bit<8> x = 1;
        hdr.o.shadow = hdr.o.shadow + x;
        bit<8> sum = 0;
        for (bit<8> i = 0; i < 10; i = i + 1) {
            if (i == hdr.i.b) { break; }
            if (i[0:0] == 1) { continue; }
            sum = sum + i;
        }
        hdr.o.loop = sum;
        bit<8> ls = 0;
        for (bit<8> v in {8w3, 8w5, 8w7, 8w9}) {
            if (v == 5) { continue; }
            ls = ls + v;
        }
        hdr.o.list = ls;
        hdr.o.cls = classify(hdr.i.a) << 4 | classify(hdr.i.b);
        add_to(hdr.o.act, 3);
        add_to(hdr.o.act, hdr.i.a);
        if (hdr.i.b == 0x42) { stop_here(); }
        hdr.o.after = 0x11;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { hdr.o.after = hdr.o.after + 1; }
}
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
