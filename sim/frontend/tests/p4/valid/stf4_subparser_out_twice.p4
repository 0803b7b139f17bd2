// STF rule (P4_16 spec 13.8 sub-parsers, 6.8 calling convention): a parser
// instance can be applied several times; it reads the packet at the
// caller's position and moves it; its arguments are copied in and out: an
// `inout` struct carries values in and back, and an `out` header parameter
// starts INVALID on every call, so a call that does not extract into it
// leaves the caller's header invalid, even if the caller had made it valid
// before the call.
#include <core.p4>
#include <v1model.p4>

header base_t {
    bit<8> k1;
    bit<8> k2;
    bit<8> count;
}
header opt_t { bit<8> v; }
struct headers_t {
    base_t b;
    opt_t  o1;
    opt_t  o2;
}
struct meta_t {
    bit<8> kind;
    bit<8> count;
}

parser Inner(packet_in pkt, out opt_t o, inout meta_t m) {
    state start {
        transition select(m.kind) {
            1: take;
            default: accept;
        }
    }
    state take {
        pkt.extract(o);
        m.count = m.count + 1;
        transition accept;
    }
}

parser SoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    Inner() inner;
    state start {
        pkt.extract(hdr.b);
        meta.count = 0x10;
        meta.kind = hdr.b.k1;
        inner.apply(pkt, hdr.o1, meta);
        hdr.o2.setValid();
        hdr.o2.v = 0x99;
        meta.kind = hdr.b.k2;
        inner.apply(pkt, hdr.o2, meta);
        transition accept;
    }
}

control SoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.b.count = meta.count;
        sm.egress_spec = 2;
    }
}

control SoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.b);
        pkt.emit(hdr.o1);
        pkt.emit(hdr.o2);
    }
}

V1Switch(SoParser(), SoVerify(), SoIngress(), SoEgress(), SoCompute(),
         SoDeparser()) main;
