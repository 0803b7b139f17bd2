// STF rule (P4_16 spec 7.2.1 enums, 8.3, 12.7 switch, 7.3 default values):
// a plain enum (no underlying type) supports assignment, ==/!= and switch
// with its members as labels (fall-through on an empty label, default for
// the rest); it can be a function's result and be passed as an argument.
#include <core.p4>
#include <v1model.p4>

enum Kind { Small, Medium, Large, Huge }

header h_t {
    bit<8> x;
    bit<8> r;
    bit<8> d;
}

bit<8> is_small(in Kind k) {
    return k == Kind.Small ? 8w1 : 8w0;
}
struct headers_t { h_t h; }
struct meta_t { }

Kind classify(in bit<8> x) {
    if (x < 0x10) {
        return Kind.Small;
    } else if (x < 0x80) {
        return Kind.Medium;
    } else if (x != 0xff) {
        return Kind.Large;
    }
    return Kind.Huge;
}

parser PeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control PeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        Kind k = classify(hdr.h.x);
        switch (k) {
            Kind.Small: { hdr.h.r = 1; }
            Kind.Medium:
            Kind.Large: { hdr.h.r = 2; }
            default: { hdr.h.r = 3; }
        }
        if (k != Kind.Large && k != Kind.Huge) {
            hdr.h.r = hdr.h.r | 0x10;
        }
        hdr.h.d = is_small(k);
        sm.egress_spec = 2;
    }
}

control PeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control PeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control PeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(PeParser(), PeVerify(), PeIngress(), PeEgress(), PeCompute(),
         PeDeparser()) main;
