// STF rule (P4_16 spec, table action lists): one action may appear in two
// tables bound to different data-plane arguments (inc(hdr.h.a) in ta,
// inc(hdr.h.b) in tb) and be called directly with a third; each use writes
// only its own bound l-value; the control-plane parameter comes from each
// table's entry or default. A bound `in` argument is read when the action
// runs, so it sees the value the control wrote just before the apply.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> r;
}

struct headers_t {
    h_t h;
}

struct meta_t { bit<8> m; }

parser AbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control AbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action inc(inout bit<8> x, bit<8> by) {
        x = x + by;
    }
    action add_in(in bit<8> src, bit<8> amount) {
        hdr.h.r = src + amount;
    }
    table ta {
        key = { hdr.h.k : exact; }
        actions = { inc(hdr.h.a); add_in(meta.m); NoAction; }
        default_action = NoAction();
    }
    table tb {
        key = { hdr.h.k : exact; }
        actions = { inc(hdr.h.b); }
        default_action = inc(hdr.h.b, 2);
    }
    apply {
        sm.egress_spec = 1;
        meta.m = hdr.h.a + 1;
        ta.apply();
        tb.apply();
        inc(hdr.h.c, 1);
    }
}

control AbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control AbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(AbParser(), AbVerify(), AbIngress(), AbEgress(), AbCompute(),
         AbDeparser()) main;
