// STF rule: slices and concatenation as values. `x ++ y` puts x in the high
// bits and its type takes the signedness of x (int<8> ++ bit<4> is int<12>,
// so a cast to int<16> sign-extends it); a slice is always unsigned, even of
// a signed value; a slice of a slice selects within the first slice.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<16> a;
    int<8>  s;
    bit<8>  b;
}

header out_t {
    bit<16> swap;  // a[7:0] ++ a[15:8]
    bit<8>  nib;   // a[11:4][7:4] ++ s[3:0]
    bit<16> sx;    // (int<16>)(s ++ b[3:0]): signed, sign-extended
    bit<16> ux;    // (bit<16>)(b ++ s[3:0]): unsigned, zero-extended
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser CrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control CrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.swap = hdr.i.a[7:0] ++ hdr.i.a[15:8];
        hdr.o.nib = hdr.i.a[11:4][7:4] ++ hdr.i.s[3:0];
        hdr.o.sx = (bit<16>)(int<16>)(hdr.i.s ++ hdr.i.b[3:0]);
        hdr.o.ux = (bit<16>)(hdr.i.b ++ hdr.i.s[3:0]);
    }
}

control CrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(CrParser(), CrVerify(), CrIngress(), CrEgress(), CrCompute(),
         CrDeparser()) main;
