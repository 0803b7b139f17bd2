// A sub-parser whose `verify` fails with a user error: the whole parse
// stops with that error (v1model then runs ingress with
// standard_metadata.parser_error set; headers extracted before stay
// valid), and `exit` from an action chosen through `switch
// (t.apply().action_run)` inside a nested control ends ingress
// (spec 13.8.1 verify, 12.5 exit).
#include <core.p4>
#include <v1model.p4>

error { BadLen }
header h_t { bit<8> len; bit<8> a; }
header p_t { bit<8> v; }
header o_t { bit<8> err; bit<8> in_sub; bit<8> after; }
struct headers_t { h_t h; p_t p; o_t o; }
struct meta_t { }

parser LenCheck(packet_in pkt, in bit<8> len, out p_t p) {
    state start {
        verify(len < 8, error.BadLen);
        pkt.extract(p);
        transition accept;
    }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    LenCheck() lc;
    state start {
        pkt.extract(hdr.h);
        lc.apply(pkt, hdr.h.len, hdr.p);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }

control Inner(inout headers_t hdr) {
    action stop() { hdr.o.in_sub = 0x5e; exit; }
    action go() { hdr.o.in_sub = 0x60; }
    table t {
        key = { hdr.h.a : exact; }
        actions = { stop; go; }
        const entries = { 1 : stop(); }
        default_action = go();
    }
    apply {
        switch (t.apply().action_run) {
            stop: { hdr.o.in_sub = 0xff; }
            go: { hdr.o.in_sub = hdr.o.in_sub + 1; }
        }
    }
}

control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    Inner() inner;
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        if (sm.parser_error == error.BadLen) { hdr.o.err = 0xe1; }
        inner.apply(hdr);
        hdr.o.after = 0xaf;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); pkt.emit(hdr.h); pkt.emit(hdr.p); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
