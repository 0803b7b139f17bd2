// STF rule (P4_16 spec 12.7 switch statement): the switch expression is
// evaluated exactly once, before any case runs, and its side effects are
// visible to the case that runs (here a function with an inout argument);
// labels are compile-time values implicitly cast to the expression's type,
// including negative labels on int<8>; consecutive labels share the next
// body; with no matching label and no default nothing runs. A switch may
// select on an expression (a slice).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> cnt;
    int<8> s;
    bit<8> x;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
}
struct headers_t { h_t h; }
struct meta_t { }

bit<8> bump(inout bit<8> c) {
    c = c + 1;
    return c;
}

parser SwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SwVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        switch (bump(hdr.h.cnt)) {
            1: { hdr.h.r1 = hdr.h.cnt; }
            2:
            3: { hdr.h.r1 = 0x23 + hdr.h.cnt; }
            default: { hdr.h.r1 = 0xdd; }
        }
        switch (hdr.h.s) {
            -1: { hdr.h.r2 = 0xf1; }
            -128:
            127: { hdr.h.r2 = 0x7f; }
            0: { hdr.h.r2 = 0x00; }
        }
        switch (hdr.h.x[7:4]) {
            0xf: { hdr.h.r3 = 0x0f; }
            0: { hdr.h.r3 = 0xa0; }
            default: { hdr.h.r3 = (bit<8>)hdr.h.x[7:4]; }
        }
        sm.egress_spec = 2;
    }
}

control SwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SwCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SwDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(SwParser(), SwVerify(), SwIngress(), SwEgress(), SwCompute(),
         SwDeparser()) main;
