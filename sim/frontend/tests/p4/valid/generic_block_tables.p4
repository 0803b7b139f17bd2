// Generic controls and parsers specialised per instance, and constructor
// parameters forwarded down a chain of instances. A generic control with a
// local of its type parameter, an action with a parameter of that type
// and a table is instantiated at bit<8> and bit<16>; each instance has its own
// table (control-plane names `PIngress.n8.t` and `PIngress.n16.t`). A
// constructor parameter goes two levels down (Outer -> Mid -> Leaf), and
// from a parser's constructor into a sub-parser's (Tagged -> Mark).
#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; bit<16> b; }
header k_t { bit<8> k; }
struct headers_t { in_t i; k_t k; }
struct meta_t { }
parser Tag<H>(packet_in pkt, out H h) {
    state start { pkt.extract(h); transition accept; }
}
parser Mark(inout bit<8> k)(bit<8> mark) {
    state start { k = k + mark; transition accept; }
}
parser Tagged(packet_in pkt, out k_t h)(bit<8> mark) {
    Tag<k_t>() tag;
    Mark(mark) m;
    state start { tag.apply(pkt, h); m.apply(h.k); transition accept; }
}
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Tagged(8w1) tagged;
    state start { pkt.extract(hdr.i); tagged.apply(pkt, hdr.k); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control Norm<T>(inout T v, in bit<8> sel) {
    T seen;
    action set(T x) { v = x; }
    action bump() { v = seen + 1; }
    table t {
        key = { sel : exact; }
        actions = { set; bump; }
        default_action = bump();
    }
    apply { seen = v; t.apply(); }
}
control Leaf(inout bit<8> v)(bit<8> amount) { apply { v = v + amount; } }
control Mid(inout bit<8> v)(bit<8> amount) {
    Leaf(amount) leaf;
    apply { leaf.apply(v); leaf.apply(v); }
}
control Outer(inout bit<8> v)(bit<8> amount) {
    Mid(amount) mid;
    apply { mid.apply(v); }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Norm<bit<8>>() n8;
    Norm<bit<16>>() n16;
    Outer(8w4) outer;
    apply {
        sm.egress_spec = 2;
        n16.apply(hdr.i.b, hdr.i.a);
        n8.apply(hdr.i.a, hdr.i.a);
        outer.apply(hdr.k.k);
    }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); pkt.emit(hdr.k); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
