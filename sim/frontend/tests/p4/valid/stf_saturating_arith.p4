// STF rule: saturating arithmetic. `|+|` and `|-|` clamp to the type's range
// instead of wrapping: bit<7> to 0..127, int<12> to -2048..2047; the plain
// `+` on the same values wraps modulo 2^W.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<7>  a;
    bit<7>  b;
    bit<2>  pad;
    int<12> x;
    int<12> y;
}

header out_t {
    bit<7>  usat_add;
    bit<7>  usat_sub;
    bit<7>  uwrap_add;
    bit<3>  pad;
    int<12> ssat_add;
    int<12> ssat_sub;
    int<12> swrap_add;
    bit<4>  pad2;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser SaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control SaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.usat_add = hdr.i.a |+| hdr.i.b;
        hdr.o.usat_sub = hdr.i.a |-| hdr.i.b;
        hdr.o.uwrap_add = hdr.i.a + hdr.i.b;
        hdr.o.ssat_add = hdr.i.x |+| hdr.i.y;
        hdr.o.ssat_sub = hdr.i.x |-| hdr.i.y;
        hdr.o.swrap_add = hdr.i.x + hdr.i.y;
    }
}

control SaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(SaParser(), SaVerify(), SaIngress(), SaEgress(), SaCompute(),
         SaDeparser()) main;
