// STF rule (P4_16 spec 8.9.1 explicit casts): each cast in a chain applies
// in turn, innermost first: bit<W> -> bit<X> truncates or zero-pads;
// bit<W> <-> int<W> keeps the bits; int<W> -> int<X> truncates or
// sign-extends; bit<1> <-> bool; a `type` is cast to and from its base.
// So (bit<8>)(int<8>)(int<4>)(bit<4>)x sign-extends x's low nibble, while
// (bit<8>)(bit<4>)(int<4>)... zero-extends it.
#include <core.p4>
#include <v1model.p4>

type bit<8> B8;

header in_t {
    bit<8>  x;
    bit<16> z;
}
header out_t {
    bit<8>  c1;  // (bit<8>)(int<8>)(int<4>)(bit<4>)x
    bit<16> c2;  // (bit<16>)(int<16>)(int<8>)x
    bit<8>  c3;  // (bit<8>)(bit<4>)(int<4>)(int<8>)x
    bit<8>  c4;  // (bit<8>)(bit<1>)(bool)x[7:7]
    bit<16> c5;  // (bit<16>)(int<16>)(int<4>)z[11:8]
    bit<8>  c6;  // (bit<8>)((int<8>)x >> 2)
    bit<8>  c7;  // (bit<8>)(B8)(bit<8>)(int<8>)(int<16>)z
    bit<32> c8;  // (bit<32>)(int<32>)(int<16>)z
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser CcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control CcVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control CcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<8> x = hdr.i.x;
        bit<16> z = hdr.i.z;
        hdr.o.setValid();
        hdr.o.c1 = (bit<8>)(int<8>)(int<4>)(bit<4>)x;
        hdr.o.c2 = (bit<16>)(int<16>)(int<8>)x;
        hdr.o.c3 = (bit<8>)(bit<4>)(int<4>)(int<8>)x;
        hdr.o.c4 = (bit<8>)(bit<1>)(bool)x[7:7];
        hdr.o.c5 = (bit<16>)(int<16>)(int<4>)z[11:8];
        hdr.o.c6 = (bit<8>)((int<8>)x >> 2);
        hdr.o.c7 = (bit<8>)(B8)(bit<8>)(int<8>)(int<16>)z;
        hdr.o.c8 = (bit<32>)(int<32>)(int<16>)z;
        sm.egress_spec = 2;
    }
}

control CcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control CcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(CcParser(), CcVerify(), CcIngress(), CcEgress(), CcCompute(),
         CcDeparser()) main;
