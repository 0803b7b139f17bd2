// STF rule (P4_16 spec 8.18 header stacks, 8.20 header unions): `isValid()`
// on a stack element named by a run-time index reads that element's
// validity; on a stack of unions, `us[j].isValid()` is true when any member
// of that element is valid and `us[j].m.isValid()` is that member's own bit;
// on a union, `u.isValid()` is true iff some member is valid. (In-range
// indexes only.)
#include <core.p4>
#include <v1model.p4>

header cmd_t {
    bit<8> i;      // index into s (0..2)
    bit<8> j;      // index into us (0..1)
    bit<8> n;      // number of s elements in the packet
    bit<8> kind;   // 1: un.a, 2: un.b, 3: us[0].a
    bit<8> flags;
}
header e_t { bit<8> v; }
header a_t { bit<8> v; }
header b_t { bit<16> v; }
header_union u_t {
    a_t a;
    b_t b;
}
struct headers_t {
    cmd_t  c;
    e_t[3] s;
    u_t[2] us;
    u_t    un;
}
struct meta_t { }

parser IvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.c);
        transition select(hdr.c.n) {
            0: opts;
            default: elems;
        }
    }
    state elems {
        pkt.extract(hdr.s.next);
        transition select((bit<8>)hdr.s.lastIndex + 1 == hdr.c.n) {
            true: opts;
            false: elems;
        }
    }
    state opts {
        transition select(hdr.c.kind) {
            1: ua;
            2: ub;
            3: usa;
            default: accept;
        }
    }
    state ua { pkt.extract(hdr.un.a); transition accept; }
    state ub { pkt.extract(hdr.un.b); transition accept; }
    state usa { pkt.extract(hdr.us[0].a); transition accept; }
}

control IvVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control IvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.us[1].b.setValid();
        hdr.us[1].b.v = 0x7777;
        bit<8> f = 0;
        if (hdr.s[hdr.c.i].isValid()) { f = f | 0x01; }
        if (hdr.us[hdr.c.j].isValid()) { f = f | 0x02; }
        if (hdr.un.isValid()) { f = f | 0x04; }
        if (hdr.un.a.isValid()) { f = f | 0x08; }
        if (hdr.un.b.isValid()) { f = f | 0x10; }
        if (hdr.us[hdr.c.j].a.isValid()) { f = f | 0x20; }
        if (hdr.us[hdr.c.j].b.isValid()) { f = f | 0x40; }
        hdr.c.flags = f;
        sm.egress_spec = 2;
    }
}

control IvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control IvCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control IvDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.c);
        pkt.emit(hdr.s);
        pkt.emit(hdr.us);
        pkt.emit(hdr.un);
    }
}

V1Switch(IvParser(), IvVerify(), IvIngress(), IvEgress(), IvCompute(),
         IvDeparser()) main;
