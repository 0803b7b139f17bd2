// A compound assignment evaluates its left side once (P4_16 "compound
// assignments": `a op= b` is `a = a op b` with `a` evaluated only once):
// a call in the target's index runs once, and the element it picks is
// both read and written. Each `next_slot` call counts itself in hdr.h.calls.
// Written for Janus from the P4_16 specification.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> calls;
    bit<8> sel;
    bit<8> x;
}

header e_t {
    bit<8> v;
}

struct headers_t {
    h_t    h;
    e_t[4] s;
}

struct meta_t {
    bit<8>[4] a;
}

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta,
           inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

// The next slot (0..3) from `sel`, counting the call.
bit<2> next_slot(inout bit<8> calls, inout bit<8> sel) {
    calls = calls + 1;
    sel = sel + 1;
    return sel[1:0];
}

// A value, counting the call too.
bit<8> ten(inout bit<8> calls) {
    calls = calls + 1;
    return 10;
}

control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyIng(inout headers_t hdr, inout meta_t meta,
              inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        meta.a = { 1, 2, 3, 4 };
        // sel 0 -> 1: a[1] |= 0x10 (a[1] = 0x12), one call.
        meta.a[next_slot(hdr.h.calls, hdr.h.sel)] |= 0x10;
        // sel 1 -> 2: a[2] += 5 (a[2] = 8), one call.
        meta.a[next_slot(hdr.h.calls, hdr.h.sel)] += 5;
        // sel 2 -> 3: a[3] -= ten() (4 - 10 = 0xfa), two calls; the
        // element is fixed before ten() runs.
        meta.a[next_slot(hdr.h.calls, hdr.h.sel)] -= ten(hdr.h.calls);
        // A header stack element: sel 3 -> 4 picks s[0]: s[0].v ^= 0xff.
        hdr.s[next_slot(hdr.h.calls, hdr.h.sel)].v ^= 0xff;
        // A slice of an element: sel 4 -> 5 picks s[1]: low nibble << 1.
        hdr.s[next_slot(hdr.h.calls, hdr.h.sel)].v[3:0] <<= 1;
        hdr.h.x = meta.a[1] + meta.a[2] + meta.a[3];
    }
}

control MyEg(inout headers_t hdr, inout meta_t meta,
             inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
