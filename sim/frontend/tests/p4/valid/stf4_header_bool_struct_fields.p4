// STF rule (P4_16 spec 7.2.2 header types, type table note [2]): a header
// may hold a bool field (one bit: 1 is true), a serializable enum field (its
// underlying bits) and a struct field whose members are bit<W>/bool/
// serializable enums (laid out in member order inside the header, in
// place). extract and emit use exactly these bits; the fields can be read
// and written like any other.
#include <core.p4>
#include <v1model.p4>

enum bit<4> Kind { LOW = 1, HIGH = 8 }

struct pt_t {
    bit<4> hi;
    bool   f;
    bit<3> lo;
}
header h_t {
    bool   flag;
    bit<7> rest;
    pt_t   pt;
    Kind   k;
    bit<4> n;
}
struct headers_t { h_t h; }
struct meta_t { }

parser HbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control HbVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control HbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.h.flag) {
            hdr.h.rest = hdr.h.rest + 1;
        }
        hdr.h.flag = !hdr.h.flag;
        hdr.h.pt.hi = (bit<4>)hdr.h.pt.lo;
        hdr.h.pt.f = !hdr.h.pt.f;
        if (hdr.h.k == Kind.HIGH) {
            hdr.h.n = 0xf;
        } else {
            hdr.h.k = Kind.LOW;
        }
        sm.egress_spec = 2;
    }
}

control HbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control HbCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control HbDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(HbParser(), HbVerify(), HbIngress(), HbEgress(), HbCompute(),
         HbDeparser()) main;
