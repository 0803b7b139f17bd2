// STF rule (P4_16 spec 6.8 calling convention): an `out` parameter of header
// type is set invalid when the callee starts (of header-stack type: every
// element invalid; of struct type: the rule applies to its header members),
// whatever the argument held. A callee that does not make it valid hands
// back an invalid header, so a valid packet header passed as that argument
// becomes invalid. Checked for a function, an action called directly and a
// control.
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header k_t {
    bit<8> k;
    bit<8> seen;
}
struct pair_t {
    e_t x;
    e_t y;
}
struct headers_t {
    k_t    k;
    e_t    a;
    e_t    b;
    pair_t p;
    e_t[2] s;
    e_t    c;
}
struct meta_t { }

void fill(in bit<8> k, out e_t o, inout bit<8> seen) {
    if (o.isValid()) {
        seen = seen | 0x80;
    }
    if (k[0:0] == 1) {
        o.setValid();
        o.v = 0x11;
    }
}

control FillPair(in bit<8> k, out pair_t p, out e_t[2] s) {
    apply {
        if (k[2:2] == 1) {
            p.y = { 0x33 };
        }
        if (k[3:3] == 1) {
            s[1] = { 0x44 };
        }
    }
}

parser OhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.k);
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        pkt.extract(hdr.p.x);
        pkt.extract(hdr.p.y);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.c);
        transition accept;
    }
}

control OhVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control OhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    FillPair() fp;
    action give(in bit<8> k, out e_t o) {
        if (k[1:1] == 1) {
            o.setValid();
            o.v = 0x22;
        }
    }
    apply {
        fill(hdr.k.k, hdr.a, hdr.k.seen);
        give(hdr.k.k, hdr.b);
        fp.apply(hdr.k.k, hdr.p, hdr.s);
        sm.egress_spec = 2;
    }
}

control OhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control OhCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control OhDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(OhParser(), OhVerify(), OhIngress(), OhEgress(), OhCompute(),
         OhDeparser()) main;
