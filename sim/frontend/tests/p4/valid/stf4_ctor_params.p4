// STF rule (P4_16 spec 15 parameterization): constructor parameters of a
// control (`control C(...)(bit<8> mul, bool neg)`) and of a parser are
// compile-time values bound per instance: two instances of one control with
// different arguments behave differently, and an instance applied twice
// uses its own arguments both times. An action of the control can read a
// constructor parameter, so each instance's table (addressed in STF by its
// path) has its own default behaviour.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> t1;
    bit<8> t2;
    bit<8> pv;
}
struct headers_t { h_t h; }
struct meta_t { }

control Scale(inout bit<8> x)(bit<8> mul, bool neg) {
    apply {
        x = x * mul;
        if (neg) {
            x = -x;
        }
    }
}

control Tag(inout bit<8> t)(bit<8> k) {
    action set(bit<8> v) { t = v; }
    action set_k() { t = k; }
    table tt {
        key = { t : exact; }
        actions = { set; set_k; }
        default_action = set_k();
    }
    apply { tt.apply(); }
}

parser Sub(packet_in pkt, inout bit<8> v)(bit<8> add) {
    state start {
        v = v + add;
        transition accept;
    }
}

parser CpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    Sub(8w1) plus1;
    Sub(8w0x40) plus40;
    state start {
        pkt.extract(hdr.h);
        plus1.apply(pkt, hdr.h.pv);
        plus40.apply(pkt, hdr.h.pv);
        plus1.apply(pkt, hdr.h.pv);
        transition accept;
    }
}

control CpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control CpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Scale(3, false) s3;
    Scale(8w2, true) s2n;
    Tag(0x11) tag1;
    Tag(0x22) tag2;
    apply {
        s3.apply(hdr.h.a);
        s2n.apply(hdr.h.b);
        s3.apply(hdr.h.c);
        tag1.apply(hdr.h.t1);
        tag2.apply(hdr.h.t2);
        sm.egress_spec = 2;
    }
}

control CpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control CpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(CpParser(), CpVerify(), CpIngress(), CpEgress(), CpCompute(),
         CpDeparser()) main;
