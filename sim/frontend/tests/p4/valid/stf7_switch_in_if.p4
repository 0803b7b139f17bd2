// STF rule (P4_16 spec, switch on action_run): `switch (t.apply().action_run)`
// nested in an if runs only when the condition holds; its case is the action
// that ran: an entry's action, NoAction from an entry (no case: default
// label), or the table's default action on a miss (no case: default label).
// When the if is false the table is not applied at all.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> en;
    bit<8> k;
    bit<8> x;
    bit<8> o;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action a1(bit<8> v) { hdr.h.x = v; }
    action a2() { }
    action a3() { hdr.h.x = 0xa3; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { a1; a2; a3; NoAction; }
        default_action = a3();
    }
    apply {
        sm.egress_spec = 2;
        if (hdr.h.en == 1) {
            switch (t.apply().action_run) {
                a1: { hdr.h.o = 1; }
                a2: { hdr.h.o = 2; }
                default: { hdr.h.o = 0xd; }
            }
        } else {
            hdr.h.o = 0xe;
        }
    }
}

control SiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SiCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SiParser(), SiVerify(), SiIngress(), SiEgress(), SiCompute(),
         SiDeparser()) main;
