// STF rule (P4_16 spec, signed integers): `>>` on int<8> is an arithmetic
// shift (rounds toward minus infinity: -5 >> 1 = -3), `<<` wraps in 8 bits;
// dividing an int<8> at run time goes through a cast to bit<8> (the two's
// complement pattern is divided as unsigned); casting int<8> to int<16>
// sign-extends before a shift, bit<8> to bit<16> zero-extends.
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<8> a;
    bit<8> n;
}

header out_t {
    int<8>  sr;      // a >> n
    int<8>  sl;      // a << n
    bit<8>  d4;      // (bit<8>)a / 4
    bit<8>  m3;      // (bit<8>)a % 3
    int<16> wide_sr; // (int<16>)a >> 4
    bit<16> wide_u;  // (bit<16>)(bit<8>)a << 4
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser IsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control IsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.sr = hdr.i.a >> hdr.i.n;
        hdr.o.sl = hdr.i.a << hdr.i.n;
        hdr.o.d4 = (bit<8>)hdr.i.a / 4;
        hdr.o.m3 = (bit<8>)hdr.i.a % 3;
        hdr.o.wide_sr = (int<16>)hdr.i.a >> 4;
        hdr.o.wide_u = (bit<16>)(bit<8>)hdr.i.a << 4;
    }
}

control IsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control IsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(IsParser(), IsVerify(), IsIngress(), IsEgress(), IsCompute(),
         IsDeparser()) main;
