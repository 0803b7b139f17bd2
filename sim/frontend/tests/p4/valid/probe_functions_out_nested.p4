// Probe (P4_16 functions and actions, spec 10 and 14): a function with out
// and inout parameters and an early return; an action reads its own local
// and writes a control-level variable that apply then tests; nested structs in
// user metadata copied as a whole; action parameters from the control plane
// mixed with directional ones bound in the actions list.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> x; bit<8> y; bit<8> q; bit<8> r; bit<8> z; bit<8> w; }
struct inner_t { bit<8> a; bit<8> b; }
struct outer_t { inner_t in1; inner_t in2; bool flag; }
struct headers_t { h_t h; }
struct meta_t { outer_t o; }
bool divmod(in bit<8> n, in bit<8> d, out bit<8> q, out bit<8> r) {
    q = 0;
    r = n;
    if (d == 0) {
        return false;
    }
    if (n >= d) { q = q + 1; r = r - d; }
    if (r >= d) { q = q + 1; r = r - d; }
    if (r >= d) { q = q + 1; r = r - d; }
    return true;
}
void bump(inout bit<8> v, in bit<8> by) {
    v = v + by;
    if (v > 0x80) {
        return;
    }
    v = v + 1;
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
    bit<8> t = 0x11;
    action use_local(bit<8> k) {
        bit<8> tt = k;
        hdr.h.z = tt;
    }
    action add_to(inout bit<8> acc, bit<8> k) {
        acc = acc + k;
        t = 0x22;
    }
    table tbl {
        key = { hdr.h.x : exact; }
        actions = { use_local; add_to(hdr.h.w); }
        default_action = use_local(0x99);
    }
    apply {
        sm.egress_spec = 2;
        bit<8> q;
        bit<8> r;
        bool ok = divmod(hdr.h.x, hdr.h.y, q, r);
        hdr.h.q = ok ? q : 8w0xee;
        hdr.h.r = r;
        meta.o.in1 = { hdr.h.x, hdr.h.y };
        meta.o.in2 = meta.o.in1;
        meta.o.in2.a = meta.o.in2.a + 1;
        bump(hdr.h.w, meta.o.in2.a);
        tbl.apply();
        if (t == 0x22) {
            hdr.h.z = hdr.h.z + 0x40;
        }
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
