// STF rule (P4_16 spec, unsigned arithmetic): bit<64> * bit<64> keeps the
// low 64 bits of the product; widening both operands to bit<128> first
// keeps all of it, so [127:64] is the part that overflowed; multiplying by
// a constant 2^32 drops the high 32 bits of the operand.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<64> a;
    bit<64> b;
}

header out_t {
    bit<64> lo;     // a * b
    bit<64> hi;     // ((bit<128>)a * (bit<128>)b)[127:64]
    bit<64> by32;   // a * 0x1_0000_0000
    bit<8>  ovf;    // 1 when hi != 0
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser MoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control MoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.lo = hdr.i.a * hdr.i.b;
        bit<128> wide = (bit<128>)hdr.i.a * (bit<128>)hdr.i.b;
        hdr.o.hi = wide[127:64];
        hdr.o.by32 = hdr.i.a * 64w0x1_0000_0000;
        hdr.o.ovf = (hdr.o.hi != 0) ? 8w1 : 8w0;
    }
}

control MoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(MoParser(), MoVerify(), MoIngress(), MoEgress(), MoCompute(),
         MoDeparser()) main;
