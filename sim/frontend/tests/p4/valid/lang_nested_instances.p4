// One control type instantiated twice, each instance with its own table
// state (STF names them <parent>.<instance>.<table>), constructor
// arguments that differ per instance, a sub-parser type instantiated twice
// in one parser, a control instance applied twice (its table is shared by
// both applies), and an extern (register) owned by a nested instance.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header item_t { bit<8> v; }
header out_t { bit<8> r1; bit<8> r2; bit<8> twice; bit<8> cnt; }
struct headers_t { in_t i; item_t x; item_t y; out_t o; }
struct meta_t { }

parser Item(packet_in pkt, out item_t it) {
    state start { pkt.extract(it); transition accept; }
}

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    Item() first;
    Item() second;
    state start {
        pkt.extract(hdr.i);
        first.apply(pkt, hdr.x);
        second.apply(pkt, hdr.y);
        transition accept;
    }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Lookup(in bit<8> k, inout bit<8> res)(bit<8> bias) {
    register<bit<8>>(1) hits;
    action set(bit<8> v) { res = v + bias; }
    table t {
        key = { k : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (t.apply().hit) {
            bit<8> h;
            hits.read(h, 0);
            hits.write(0, h + 1);
        }
    }
}

control Counter(inout bit<8> c) {
    apply { c = c + 1; }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    Lookup(8w0) l1;
    Lookup(8w0x80) l2;
    Counter() ctr;
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        l1.apply(hdr.x.v, hdr.o.r1);
        l2.apply(hdr.y.v, hdr.o.r2);
        ctr.apply(hdr.o.twice);
        ctr.apply(hdr.o.twice);
        hdr.o.cnt = hdr.i.a;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
