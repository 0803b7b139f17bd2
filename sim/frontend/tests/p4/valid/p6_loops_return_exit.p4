// Loops (spec 12.8, P4_16 1.2.5): `for` with a declaration in the
// initialiser, a function returning from the middle of a loop, `for (x in
// stack)` over a header stack, `break` and `continue`; `exit` in an action
// called from another action ends the ingress control (spec 12.5).
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header h_t { bit<8> a; bit<8> idx; bit<8> sum; bit<8> odd; bit<8> tail; }
struct headers_t { h_t h; e_t[4] st; }
struct meta_t { }

bit<8> index_of(in bit<8> needle, in e_t[4] s) {
    for (bit<8> i = 0; i < 4; i = i + 1) {
        if (s[2w0 + (bit<2>)i].v == needle) { return i; }
    }
    return 0xff;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); pkt.extract(hdr.st[0]); pkt.extract(hdr.st[1]);
                  pkt.extract(hdr.st[2]); pkt.extract(hdr.st[3]); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action stop() { hdr.h.tail = 0xee; exit; }
    action maybe_stop(bit<8> v) {
        if (v == 0xff) { stop(); }
        hdr.h.tail = 0x01;
    }
    apply {
        sm.egress_spec = 2;
        hdr.h.idx = index_of(hdr.h.a, hdr.st);
        for (e_t e in hdr.st) {
            if (e.v == 0) { break; }
            hdr.h.sum = hdr.h.sum + e.v;
        }
        for (bit<8> k = 0; k < 8; k = k + 1) {
            if (k[0:0] == 0) { continue; }
            hdr.h.odd = hdr.h.odd + k;
        }
        maybe_stop(hdr.h.idx);
        hdr.h.tail = hdr.h.tail + 1;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.st); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
