// STF rule (P4_16 spec, exit statement): when a table's action executes
// `exit` while the table is applied inside an expression, the evaluation
// stops: for `if (t.apply().hit)` neither the then nor the else branch
// runs; for `switch (t.apply().action_run)` no case block runs; and nothing
// after it in the control runs. The packet still goes on to egress.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> k2;
    bit<8> m;      // written by the actions
    bit<8> br;     // if branch taken
    bit<8> br2;    // switch case taken
    bit<8> post;   // written after both
    bit<8> eg;     // written in egress
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser XaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control XaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control XaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action ex()  { hdr.h.m = 0xe0; exit; }
    action go()  { hdr.h.m = 0x60; }
    action ex2() { hdr.h.m = 0xe2; exit; }
    action go2() { }
    table t {
        key = { hdr.h.k : exact; }
        actions = { ex; go; }
        default_action = go();
    }
    table t2 {
        key = { hdr.h.k2 : exact; }
        actions = { ex2; go2; }
        default_action = go2();
    }
    apply {
        sm.egress_spec = 1;
        switch (t2.apply().action_run) {
            ex2: {
                hdr.h.br2 = 0x01;
            }
            default: {
                hdr.h.br2 = 0x02;
            }
        }
        if (t.apply().hit) {
            hdr.h.br = 0xaa;
        } else {
            hdr.h.br = 0xbb;
        }
        hdr.h.post = 0x22;
    }
}

control XaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eg = 0x33;
    }
}

control XaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control XaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(XaParser(), XaVerify(), XaIngress(), XaEgress(), XaCompute(),
         XaDeparser()) main;
