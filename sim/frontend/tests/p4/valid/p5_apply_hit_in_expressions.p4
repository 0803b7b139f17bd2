// Table results inside expressions: `t.apply().hit` as the condition of
// `?:`, `!t.apply().hit`, and `.miss` in an `if`; each apply runs the
// table once (its action writes a counter byte).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> k;
    bit<8> n1;
    bit<8> n2;
    bit<8> r1;
    bit<8> r2;
}

struct headers_t {
    in_t i;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    action bump1() { hdr.i.n1 = hdr.i.n1 + 1; }
    action bump2() { hdr.i.n2 = hdr.i.n2 + 1; }
    table t1 {
        key = { hdr.i.k : exact; }
        actions = { bump1; NoAction; }
        default_action = NoAction();
    }
    table t2 {
        key = { hdr.i.k : exact; }
        actions = { bump2; }
        default_action = bump2();
    }
    apply {
        sm.egress_spec = 2;
        hdr.i.r1 = t1.apply().hit ? 8w0xa1 : 8w0xb1;
        if (!t2.apply().hit) {
            hdr.i.r2 = 8w0x0f;
        }
        if (t2.apply().miss) {
            hdr.i.r2 = hdr.i.r2 | 8w0xf0;
        }
    }

}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
