// Indexed part-selects (P4_16 1.2.4): `e[lo +: w]` is bits lo .. lo+w-1
// of e and `e[hi -: w]` bits hi-w+1 .. hi, a `bit<w>`; the width is a
// compile-time constant, the start may be a run-time value. Both read and
// are assigned to (also by compound assignments and through a slice of
// them). Out of range, the bits outside e read as 0 and are not written,
// as with shifts: `(e >> lo)[w-1:0]` to read, a masked merge to write. A
// constant start is a plain slice.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  lo;    // a start
    bit<16> x;
    int<8>  s;
    bit<8>  r0;
    bit<8>  r1;
    bit<16> w;
    bit<8>  r2;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser PsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control PsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        // Reads.
        hdr.h.r0 = hdr.h.x[hdr.h.lo +: 8];
        hdr.h.r1 = (bit<8>)hdr.h.s[hdr.h.lo -: 4];
        // Writes: a part of w, then a compound assignment on another part,
        // then a slice of a part.
        hdr.h.w = 0;
        hdr.h.w[hdr.h.lo +: 4] = 4w0xf;
        hdr.h.w[hdr.h.lo -: 4] |= 4w0x5;
        hdr.h.w[(hdr.h.lo + 8) +: 8][1:0] = 2w0x3;
        // A constant start is a slice: x[4 +: 4] is x[7:4].
        hdr.h.r2 = hdr.h.x[4 +: 4] ++ hdr.h.x[15 -: 4];
    }
}

control PsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control PsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PsParser(), PsVerify(), PsIngress(), PsEgress(), PsCompute(),
         PsDeparser()) main;
