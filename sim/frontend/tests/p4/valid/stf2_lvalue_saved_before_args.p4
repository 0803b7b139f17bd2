// STF rule (P4_16 spec, calling convention, step 3: "For each out and
// inout argument the corresponding l-value is saved (so it cannot be
// changed by the evaluation of the following arguments)"): a side effect
// of a LATER argument on a variable used in the index of an inout argument
// (here tick(i), which increments i) does not redirect the copy-out:
// setv(s[i].v, tick(i)) writes to the element i had before the call. An
// index expression is evaluated before the arguments to its right:
// setv(s[tick(i)].v, i) passes the incremented i.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> i;
    bit<8> after;
}

header e_t {
    bit<8> v;
}

struct headers_t {
    h_t    h;
    e_t[4] s;
}

struct meta_t { }

void setv(inout bit<8> x, in bit<8> y) {
    x = y;
}

bit<8> tick(inout bit<8> c) {
    c = c + 1;
    return c;
}

parser LsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.s[0]);
        pkt.extract(hdr.s[1]);
        pkt.extract(hdr.s[2]);
        pkt.extract(hdr.s[3]);
        transition accept;
    }
}

control LsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> i = hdr.h.i;
        setv(hdr.s[i].v, tick(i));   // s[i0].v = i0 + 1; i = i0 + 1
        setv(hdr.s[tick(i)].v, i);   // i = i0 + 2 first; s[i0 + 2].v = i0 + 2
        hdr.h.after = i;
    }
}

control LsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.s);
    }
}

V1Switch(LsParser(), LsVerify(), LsIngress(), LsEgress(), LsCompute(),
         LsDeparser()) main;
