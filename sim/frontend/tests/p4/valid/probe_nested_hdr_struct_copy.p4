// Probe (composite values): a headers struct holding a nested struct of
// headers is parsed into and emitted depth first in declaration order;
// assigning an invalid header to another makes the target invalid (the
// whole value, validity included, is copied); a list expression assigned to
// a header makes it valid; switch on action_run with two labels sharing
// one block.
#include <core.p4>
#include <v1model.p4>

header a_t { bit<8> x; }
header b_t { bit<8> y; bit<8> z; }
struct pair_t { a_t a; b_t b; }
struct headers_t { a_t first; pair_t pair; b_t last; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.first);
        transition select(hdr.first.x) {
            1: both;
            2: only_b;
            default: accept;
        }
    }
    state both { pkt.extract(hdr.pair.a); pkt.extract(hdr.pair.b); transition accept; }
    state only_b { pkt.extract(hdr.pair.b); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action act1() { }
    action act2() { }
    action act3() { }
    table pick {
        key = { hdr.first.x : exact; }
        actions = { act1; act2; act3; }
        default_action = act3();
    }
    apply {
        sm.egress_spec = 2;
        // `last` takes pair.b's value: valid or not.
        hdr.last = hdr.pair.b;
        switch (pick.apply().action_run) {
            act1:
            act2: {
                hdr.pair.a = { 8w0xaa };
            }
            act3: {
                hdr.pair.a.setInvalid();
            }
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
