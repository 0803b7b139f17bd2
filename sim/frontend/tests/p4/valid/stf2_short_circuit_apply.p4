// STF rule (P4_16 spec, && and || short-circuit): in `a && t.apply().hit`
// the table is applied only when a is true, and in `a || t.apply().hit`
// only when a is false. A table that is not applied runs no action at all
// (neither an entry's action nor the default action).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> x;
    bit<8> y;
    bit<8> k;
    bit<8> ma;    // written by ta's actions
    bit<8> mb;    // written by tb's actions
    bit<8> res;
    bit<8> res2;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser ScParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ScVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action hit_a()  { hdr.h.ma = 0x01; }
    action miss_a() { hdr.h.ma = 0xf0; }
    action hit_b()  { hdr.h.mb = 0x01; }
    action miss_b() { hdr.h.mb = 0xf0; }
    table ta {
        key = { hdr.h.k : exact; }
        actions = { hit_a; miss_a; }
        default_action = miss_a();
    }
    table tb {
        key = { hdr.h.k : exact; }
        actions = { hit_b; miss_b; }
        default_action = miss_b();
    }
    apply {
        sm.egress_spec = 1;
        if (hdr.h.x == 1 && ta.apply().hit) {
            hdr.h.res = 0xaa;
        } else {
            hdr.h.res = 0xbb;
        }
        if (hdr.h.y == 1 || tb.apply().hit) {
            hdr.h.res2 = 0xcc;
        } else {
            hdr.h.res2 = 0xdd;
        }
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ScCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
