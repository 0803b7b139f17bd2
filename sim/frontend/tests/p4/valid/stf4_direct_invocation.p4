// STF rule (P4_16 spec 15.1 direct type invocation): a control or parser
// type without constructor parameters can be invoked directly,
// `Inc.apply(x)`, without declaring an instance; it behaves as an apply of
// an anonymous instance (stateless here, so instance identity does not
// matter). A parser type is invoked the same way from a parser state.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}
header o_t { bit<8> v; }
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t { }

control Inc(inout bit<8> x) {
    apply { x = x + 1; }
}

parser TakeO(packet_in pkt, out o_t o) {
    state start {
        pkt.extract(o);
        transition accept;
    }
}

parser DiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        TakeO.apply(pkt, hdr.o);
        transition accept;
    }
}

control DiVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        Inc.apply(hdr.h.a);
        Inc.apply(hdr.h.b);
        Inc.apply(hdr.h.b);
        sm.egress_spec = 2;
    }
}

control DiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DiCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}

V1Switch(DiParser(), DiVerify(), DiIngress(), DiEgress(), DiCompute(),
         DiDeparser()) main;
