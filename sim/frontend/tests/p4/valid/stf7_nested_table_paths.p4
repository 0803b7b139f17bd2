// STF rule (control-plane names): a table inside a control instantiated two
// levels deep is named by the instance path from the top-level control
// (NcIngress.m1.l.t); the same path under ingress and egress names two
// different tables with their own entries and defaults (the suffix m1.l.t
// would be ambiguous, so full names are used); a Leaf applied directly in
// ingress has its own table NcIngress.direct.t.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

control Leaf(inout bit<8> x) {
    action set(bit<8> v) { x = x + v; }
    table t {
        key = { x : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply {
        t.apply();
    }
}

control Mid(inout bit<8> y) {
    Leaf() l;
    apply {
        l.apply(y);
    }
}

parser NcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control NcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Mid() m1;
    Leaf() direct;
    apply {
        sm.egress_spec = 1;
        m1.apply(hdr.h.a);
        direct.apply(hdr.h.b);
    }
}

control NcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Mid() m1;
    apply {
        m1.apply(hdr.h.c);
    }
}

control NcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(NcParser(), NcVerify(), NcIngress(), NcEgress(), NcCompute(),
         NcDeparser()) main;
