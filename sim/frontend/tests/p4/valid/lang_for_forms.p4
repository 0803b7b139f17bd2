// for loops (P4_16 1.2.5): several initialisers and updates separated by
// commas, a loop variable declared outside, for-in over an inclusive range
// with constant and runtime bounds, for-in over a list expression with
// struct elements, nested loops with break only leaving the inner one,
// continue skipping the update-free tail, a loop that runs zero times.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> n; bit<8> m; }
header out_t {
    bit<8> pair; bit<8> outer; bit<8> range; bit<8> rrange; bit<8> structs;
    bit<8> nested; bit<8> zero;
}
struct kv_t { bit<8> k; bit<8> v; }
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
        bit<8> acc = 0;
        for (bit<8> i = 0, bit<8> j = 10; i < j; i = i + 1, j = j - 1) {
            acc = acc + 1;
        }
        hdr.o.pair = acc;
        bit<8> k;
        for (k = 1; k < 0x80; k = k << 1) { }
        hdr.o.outer = k;
        bit<8> r = 0;
        for (bit<8> x in 1 .. 4) { r = r + x; }
        hdr.o.range = r;
        bit<8> rr = 0;
        for (bit<8> x in hdr.i.n .. hdr.i.m) { rr = rr + 1; }
        hdr.o.rrange = rr;
        bit<8> sv = 0;
        for (kv_t e in { (kv_t){ k = 1, v = 0x10 }, (kv_t){ k = 2, v = 0x20 } }) {
            if (e.k == hdr.i.n) { continue; }
            sv = sv + e.v;
        }
        hdr.o.structs = sv;
        bit<8> cnt = 0;
        for (bit<8> a = 0; a < 3; a = a + 1) {
            for (bit<8> b = 0; b < 10; b = b + 1) {
                if (b == a + 1) { break; }
                cnt = cnt + 1;
            }
        }
        hdr.o.nested = cnt;
        bit<8> z = 0x55;
        for (bit<8> q = 5; q < hdr.i.n; q = q + 1) { z = 0; }
        hdr.o.zero = z;
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
