// STF rule (P4_16 spec 6.8 calling convention, 8.11/8.12 list and structure
// expressions as arguments): an `in` parameter of struct type can receive a
// list expression or a structure-valued expression built from run-time
// values; all arguments are copied in before the callee runs, so when the
// same storage is also passed `inout`, the callee's writes to the inout
// parameter do not change what it reads through the `in` one; out/inout
// results are copied back after it ends.
#include <core.p4>
#include <v1model.p4>

struct pair_t {
    bit<8> x;
    bit<8> y;
}
header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
}
struct headers_t { h_t h; }
struct meta_t {
    pair_t p;
}

control Use(in pair_t p, inout bit<8> acc, out bit<8> seen) {
    apply {
        acc = acc + 1;
        seen = p.x + p.y;
    }
}

parser IsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control IsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control IsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Use() use;
    apply {
        use.apply({ hdr.h.a, hdr.h.b }, hdr.h.r3, hdr.h.r1);
        meta.p = { y = hdr.h.b, x = hdr.h.a };
        use.apply(meta.p, meta.p.x, hdr.h.r2);
        hdr.h.a = meta.p.x;
        use.apply((pair_t){ y = 8w0x10, x = hdr.h.r2 }, hdr.h.r3, hdr.h.b);
        sm.egress_spec = 2;
    }
}

control IsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control IsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control IsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(IsParser(), IsVerify(), IsIngress(), IsEgress(), IsCompute(),
         IsDeparser()) main;
