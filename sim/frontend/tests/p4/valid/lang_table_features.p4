// Table features: keys that are expressions and slices with @name, entries
// with explicit priorities under largest_priority_wins = false and a
// priority_delta, const entries in order (first wins), default actions with
// constant arguments, const default_action, size, @hidden, @defaultonly and
// @tableonly actions, apply().hit / .miss in conditions, action_run switch
// with default.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> a; bit<8> b; }
header out_t { bit<8> ex; bit<8> prio; bit<8> first; bit<8> hid; bit<8> hit; bit<8> run; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action set_ex(bit<8> v) { hdr.o.ex = v; }
    action ex_miss(bit<8> v) { hdr.o.ex = v ^ 0xff; }
    action only_table(bit<8> v) { hdr.o.ex = v + 1; }
    table t_expr {
        key = {
            hdr.i.a & 0xF0 : exact @name("a_hi");
            hdr.i.b[3:0] : exact @name("b_lo");
        }
        actions = { set_ex; @tableonly only_table; @defaultonly ex_miss; }
        default_action = ex_miss(0x22);
        size = 64;
    }

    action set_prio(bit<8> v) { hdr.o.prio = v; }
    table t_prio {
        key = { hdr.i.a : ternary; }
        actions = { set_prio; NoAction; }
        largest_priority_wins = false;
        priority_delta = 10;
        const entries = {
            priority = 30: 0x00 &&& 0x00 : set_prio(0x30);
            priority = 20: 0x10 &&& 0xf0 : set_prio(0x20);
            priority = 10: 0x12 &&& 0xff : set_prio(0x10);
        }
        const default_action = NoAction();
    }

    action set_first(bit<8> v) { hdr.o.first = v; }
    table t_first {
        key = { hdr.i.b : ternary; }
        actions = { set_first; }
        const entries = {
            0x05 &&& 0x0f : set_first(1);
            0x00 &&& 0x00 : set_first(2);
            0x15 &&& 0xff : set_first(3);
        }
        default_action = set_first(0xff);
    }

    action mark_hidden() { hdr.o.hid = 0x4d; }
    @hidden table t_hidden {
        actions = { mark_hidden; }
        const default_action = mark_hidden();
    }

    action a1() { hdr.o.run = 1; }
    action a2() { hdr.o.run = 2; }
    action a3() { hdr.o.run = 3; }
    table t_run {
        key = { hdr.i.a : exact; }
        actions = { a1; a2; a3; }
        const entries = {
            1 : a1();
            2 : a2();
            3 : a3();
        }
        const default_action = a3();
    }

    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        if (t_expr.apply().hit) {
            hdr.o.hit = 1;
        } else if (!t_prio.apply().miss) {
            hdr.o.hit = 2;
        }
        t_first.apply();
        t_hidden.apply();
        switch (t_run.apply().action_run) {
            a1: { hdr.o.run = hdr.o.run + 0x10; }
            default: { hdr.o.run = hdr.o.run + 0x20; }
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
