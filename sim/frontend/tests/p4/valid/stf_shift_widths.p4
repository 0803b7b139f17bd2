// STF rule: shifts keep the left operand's type. On bit<7>, << and >> are
// logical and bits shifted past bit 6 are lost; a shift by 7 or more gives 0.
// On int<12>, >> is arithmetic (copies of the sign bit come in from the
// left, so a large shift of a negative value gives -1) and << drops the bits
// past the sign bit. The shift amount may come from a packet field.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<7>  a;
    bit<1>  pad;
    int<12> s;
    bit<4>  n;
}

header out_t {
    bit<7>  shl;
    bit<7>  shr;
    bit<7>  rot3;
    bit<3>  pad;
    int<12> sshr;
    int<12> sshl;
    int<12> sshr2;
    bit<4>  pad2;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser ShParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control ShVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ShIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.shl = hdr.i.a << hdr.i.n;
        hdr.o.shr = hdr.i.a >> hdr.i.n;
        // A 7-bit rotate left by 3.
        hdr.o.rot3 = (hdr.i.a << 3) | (hdr.i.a >> 4);
        hdr.o.sshr = hdr.i.s >> hdr.i.n;
        hdr.o.sshl = hdr.i.s << hdr.i.n;
        hdr.o.sshr2 = hdr.i.s >> 2;
    }
}

control ShEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ShCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ShDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(ShParser(), ShVerify(), ShIngress(), ShEgress(), ShCompute(),
         ShDeparser()) main;
