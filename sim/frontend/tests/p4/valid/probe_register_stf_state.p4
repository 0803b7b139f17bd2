// Probe (v1model register, STF state commands): register_write presets a
// cell, the data plane reads and updates it in an action (read-modify-
// write), register_reset clears every cell; a register of bit<48> cells
// keeps all 48 bits and its sums wrap at 2^48.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> idx; bit<32> before; bit<48> wide; }
struct headers_t { h_t h; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    register<bit<32>>(8) hits;
    register<bit<48>>(4) stamps;
    action bump(bit<32> by) {
        bit<32> v;
        hits.read(v, (bit<32>)hdr.h.idx);
        hdr.h.before = v;
        hits.write((bit<32>)hdr.h.idx, v + by);
    }
    table t {
        key = { hdr.h.idx : exact; }
        actions = { bump; }
        default_action = bump(1);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
        bit<48> w;
        stamps.read(w, (bit<32>)hdr.h.idx[1:0]);
        stamps.write((bit<32>)hdr.h.idx[1:0], w + 48w0x0100_0000_0001);
        hdr.h.wide = w;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
