// STF rule (P4_16 spec 11.2 variables, 8.17 headers, 8.18 stacks): a local
// header or header stack declared without an initializer is invalid (every
// element, for a stack); assigning a header copies its validity with its
// fields; push_front(1) on a local stack shifts its elements and leaves
// element 0 invalid, so copying that element into a packet header makes
// the packet header invalid (it is not emitted).
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header f_t { bit<8> flags; }
struct headers_t {
    f_t f;
    e_t a;
    e_t b;
    e_t c;
}
struct meta_t { }

parser LhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.f);
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        pkt.extract(hdr.c);
        transition accept;
    }
}

control LhVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control LhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        e_t tmp;
        e_t[2] ls;
        bit<8> f = 0;
        if (tmp.isValid()) { f = f | 0x01; }
        if (ls[0].isValid() || ls[1].isValid()) { f = f | 0x02; }
        tmp = hdr.a;
        if (tmp.isValid()) { f = f | 0x04; }
        tmp.v = tmp.v + 1;
        ls[0] = tmp;
        ls.push_front(1);
        if (ls[1].isValid()) { f = f | 0x08; }
        if (!ls[0].isValid()) { f = f | 0x10; }
        hdr.b = ls[1];
        hdr.c = ls[0];
        hdr.f.flags = f;
        sm.egress_spec = 2;
    }
}

control LhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LhCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.f);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.c);
    }
}

V1Switch(LhParser(), LhVerify(), LhIngress(), LhEgress(), LhCompute(),
         LhDeparser()) main;
