// STF rule (P4_16 spec, table apply results): `if (t1.apply().hit)` applies
// t2 only when t1 matched an entry; t2's key reads the field t1's action
// just wrote; `.hit` is false on a miss even though t1's default action ran
// (and wrote), and then the else branch applies t3 instead; `!t2.apply().hit`
// reacts to t2's miss.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> f;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser HcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control HcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action s1(bit<8> v) { hdr.h.a = v; }
    action s2(bit<8> v) { hdr.h.b = v; }
    action s3(bit<8> v) { hdr.h.c = v; }
    table t1 {
        key = { hdr.h.k : exact; }
        actions = { s1; }
        default_action = s1(0x99);
    }
    table t2 {
        key = { hdr.h.a : exact; }
        actions = { s2; NoAction; }
        default_action = NoAction();
    }
    table t3 {
        key = { hdr.h.k : exact; }
        actions = { s3; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        if (t1.apply().hit) {
            if (!t2.apply().hit) {
                hdr.h.f = hdr.h.f | 0x80;
            }
        } else {
            t3.apply();
        }
    }
}

control HcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(HcParser(), HcVerify(), HcIngress(), HcEgress(), HcCompute(),
         HcDeparser()) main;
