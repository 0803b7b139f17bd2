// STF rule (P4_16 spec 13.8/14 instantiation, 11.2 variables): one control
// instance applied twice in the same ingress shares its extern instances
// (the second call sees the register the first call wrote, and the
// register keeps its value for the next packet), while the local variables
// of its apply block start afresh on every call. A control with an empty
// `apply {}` changes nothing. (Control-level variables with initializers:
// stf4_decl_local_init.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> ma;
    bit<8> mb;
}
struct headers_t { h_t h; }
struct meta_t { }

control Acc(inout bit<8> x, out bit<8> mark) {
    register<bit<8>>(1) total;
    apply {
        bit<8> local = 0x10;
        bit<8> t;
        total.read(t, 0);
        t = t + x;
        total.write(0, t);
        x = t;
        local = local + 1;
        mark = local;
    }
}

control Nothing(inout headers_t hdr) {
    apply { }
}

parser AtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control AtVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control AtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Acc() acc;
    Nothing() nothing;
    apply {
        acc.apply(hdr.h.a, hdr.h.ma);
        nothing.apply(hdr);
        acc.apply(hdr.h.b, hdr.h.mb);
        sm.egress_spec = 2;
    }
}

control AtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control AtCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control AtDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(AtParser(), AtVerify(), AtIngress(), AtEgress(), AtCompute(),
         AtDeparser()) main;
