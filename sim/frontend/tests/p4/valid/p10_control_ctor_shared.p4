// One control instance (with a register, a counter and a table) passed
// to the constructors of two other blocks and applied directly too: all
// three applies reach one register, one counter and one table, named
// where the instance was declared (I.tally.*).
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
struct meta_t { }
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control Step(inout bit<8> x);
control Tally(inout bit<8> x) {
    register<bit<8>>(1) r;
    counter(1, CounterType.packets) c;
    action plus(bit<8> k) { x = x + k; }
    table bonus {
        key = { x : exact; }
        actions = { plus; NoAction; }
        default_action = NoAction();
    }
    apply {
        bit<8> v;
        r.read(v, 0);
        v = v + 1;
        r.write(0, v);
        x = v;
        c.count(0);
        bonus.apply();
    }
}
control UseA(inout hdrs_t h)(Step f) {
    apply { f.apply(h.eth.src[7:0]); }
}
control UseB(inout hdrs_t h)(Step f) {
    apply { f.apply(h.eth.dst[7:0]); }
}
// `t` is read by the inout parameter of Tally before it has a value (p4c: uninitialized_use).
@noWarn("uninitialized_use")
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    Tally() tally;
    UseA(tally) a;
    UseB(tally) b;
    apply {
        a.apply(h);
        b.apply(h);
        bit<8> t;
        tally.apply(t);
        h.eth.etype[7:0] = t;
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
