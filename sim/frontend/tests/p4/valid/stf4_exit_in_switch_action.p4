// STF rule (P4_16 spec 12.6 exit, 12.7 switch): a switch statement inside an
// action body can hold `exit`; running it ends the action, the rest of the
// switch and of the action, and the whole ingress apply block (for an
// action run by a table: the table's apply, and no case of a
// `switch (t.apply().action_run)` runs); egress still runs. A case without
// `exit` carries on after the switch.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> k2;
    bit<8> trace;
}
struct headers_t { h_t h; }
struct meta_t { }

parser ExParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ExVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control ExIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action act(bit<8> k) {
        hdr.h.trace = hdr.h.trace | 0x01;
        switch (k) {
            1: {
                hdr.h.trace = hdr.h.trace | 0x02;
                exit;
            }
            2: { hdr.h.trace = hdr.h.trace | 0x04; }
        }
        hdr.h.trace = hdr.h.trace | 0x08;
    }
    action other() {
        hdr.h.trace = hdr.h.trace | 0x80;
    }
    table t {
        key = { hdr.h.k2 : exact; }
        actions = { act; other; }
        default_action = other();
    }
    apply {
        sm.egress_spec = 2;
        act(hdr.h.k);
        hdr.h.trace = hdr.h.trace | 0x10;
        switch (t.apply().action_run) {
            act: { hdr.h.trace = hdr.h.trace | 0x20; }
            other: { hdr.h.trace = hdr.h.trace | 0x40; }
        }
    }
}

control ExEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { hdr.h.k2 = hdr.h.k2 | 0xe0; }
}

control ExCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control ExDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(ExParser(), ExVerify(), ExIngress(), ExEgress(), ExCompute(),
         ExDeparser()) main;
