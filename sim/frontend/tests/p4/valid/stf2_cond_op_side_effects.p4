// STF rule (P4_16 spec, conditional operator): `c ? e1 : e2` evaluates c
// and then ONLY the chosen branch, so the side effects of the other branch
// (here a call that increments its inout argument) do not happen.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> s;
    bit<8> c;
    bit<8> d;
    bit<8> r;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

bit<8> tick(inout bit<8> v) {
    v = v + 1;
    return v;
}

parser CsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> c = hdr.h.c;
        bit<8> d = hdr.h.d;
        hdr.h.r = hdr.h.s == 1 ? tick(c) : (hdr.h.s == 2 ? tick(d) : 8w0x77);
        hdr.h.c = c;
        hdr.h.d = d;
    }
}

control CsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CsParser(), CsVerify(), CsIngress(), CsEgress(), CsCompute(),
         CsDeparser()) main;
