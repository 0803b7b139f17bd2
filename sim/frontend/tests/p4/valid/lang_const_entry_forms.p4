// Const entry key forms: tuple keys mixing exact, ternary (&&&), lpm given
// as value &&& prefix mask, range (lo .. hi), optional (_ or a value), the
// `default` / `_` keyset, constant expressions as key values, a bool key
// written true/false, and entries in order (the first listed entry wins
// among overlapping ternary/range matches).
#include <core.p4>
#include <v1model.p4>

const bit<8> BASE = 0x40;

header in_t { bit<8> e; bit<8> t; bit<16> p; bit<8> r; bit<8> o; }
header out_t { bit<8> res; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action res(bit<8> v) { hdr.o.res = v; }
    table t_mixed {
        key = {
            hdr.i.e : exact;
            hdr.i.t : ternary;
            hdr.i.r : range;
            hdr.i.o : optional;
        }
        actions = { res; }
        const entries = {
            (BASE + 1, 0x0f &&& 0x0f, 1 .. 10, _) : res(1);
            (BASE + 1, _, 5 .. 20, 7) : res(2);
            (BASE + 2, 0xa0 &&& 0xf0, _, _) : res(3);
            (BASE + 2, _, 0 .. 255, 9) : res(4);
        }
        default_action = res(0xdd);
    }
    table t_lpm {
        key = { hdr.i.p : lpm; }
        actions = { res; }
        const entries = {
            0x1200 &&& 0xff00 : res(0x10);
            0x1230 &&& 0xfff0 : res(0x20);
            _ : res(0x30);
        }
        default_action = res(0xee);
    }
    table t_bool {
        key = { hdr.i.e == BASE : exact @name("is_base"); }
        actions = { res; }
        const entries = {
            true : res(0x77);
            false : res(0x88);
        }
        default_action = res(0x99);
    }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        if (hdr.i.e == 0) {
            t_lpm.apply();
        } else if (hdr.i.e == 1) {
            t_bool.apply();
        } else if (hdr.i.e == BASE) {
            t_bool.apply();
        } else {
            t_mixed.apply();
        }
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
