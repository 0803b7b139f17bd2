// Probe (exit and return, spec 13.x): `exit` in a table's action ends the
// ingress control (later statements skipped) but not the pipeline: egress
// and the deparser still run; `return` in an apply block ends only that
// block; a nested control's return goes back to its caller.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k; bit<8> i1; bit<8> i2; bit<8> e1; bit<8> n; }
struct headers_t { h_t h; }
struct meta_t { }
control Sub(inout h_t h) {
    apply {
        h.n = 0x01;
        if (h.k == 3) {
            return;
        }
        h.n = 0x02;
    }
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Sub() sub;
    action stop() { hdr.h.i1 = 0x5e; exit; }
    action go() { hdr.h.i1 = 0x60; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { stop; go; }
        default_action = go();
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
        sub.apply(hdr.h);
        if (hdr.h.k == 4) {
            return;
        }
        hdr.h.i2 = 0x77;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply {
        hdr.h.e1 = 0xe9;
        if (hdr.h.k == 2) { return; }
        hdr.h.e1 = 0xea;
    }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
