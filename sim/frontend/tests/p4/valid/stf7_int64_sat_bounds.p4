// STF rule (P4_16 spec, saturating arithmetic on int<64>): `|+|` and `|-|`
// clamp to -2^63 .. 2^63-1 when the exact result falls outside, and give
// the exact result when it lands on a bound; plain `+` wraps modulo 2^64.
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<64> a;
    int<64> b;
}

header out_t {
    int<64> sadd;  // a |+| b
    int<64> ssub;  // a |-| b
    int<64> add;   // a + b
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser SbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control SbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.sadd = hdr.i.a |+| hdr.i.b;
        hdr.o.ssub = hdr.i.a |-| hdr.i.b;
        hdr.o.add = hdr.i.a + hdr.i.b;
    }
}

control SbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(SbParser(), SbVerify(), SbIngress(), SbEgress(), SbCompute(),
         SbDeparser()) main;
