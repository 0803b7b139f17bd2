// STF rule (P4_16 spec 6.8 calling convention, default parameter values):
// an `in` or directionless parameter may have a compile-time default; a
// call that leaves it out uses the default; when the defaulted parameter is
// not last, the call names its arguments and may skip it. Applies to
// functions and to actions called directly.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> x;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
    bit<8> r4;
    bit<8> r5;
}
struct headers_t { h_t h; }
struct meta_t { }

bit<8> mix(in bit<8> a, in bit<8> b = 0x10, in bit<8> c = 0x01) {
    return a + b * c;
}

parser DaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control DaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action put(out bit<8> dst, in bit<8> v = 0x42) {
        dst = v;
    }
    apply {
        hdr.h.r1 = mix(hdr.h.x);
        hdr.h.r2 = mix(hdr.h.x, 2);
        hdr.h.r3 = mix(a = hdr.h.x, c = 3);
        put(hdr.h.r4);
        put(hdr.h.r5, hdr.h.x);
        sm.egress_spec = 2;
    }
}

control DaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(DaParser(), DaVerify(), DaIngress(), DaEgress(), DaCompute(),
         DaDeparser()) main;
