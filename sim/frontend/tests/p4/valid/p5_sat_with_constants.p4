// Saturating operators with a constant operand: bit<16> |+| 0xfff0 clamps
// at 0xffff, |-| 0x0100 clamps at 0; int<16> |-| 100 clamps at -32768 and
// |+| -1 at the bottom stays there; the constant takes the field's type.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<16> u;
    int<16> s;
}

header out_t {
    bit<16> uadd;
    bit<16> usub;
    int<16> ssub;
    int<16> sadd;
}

struct headers_t {
    in_t  i;
    out_t o;
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
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.uadd = hdr.i.u |+| 16w0xfff0;
        hdr.o.usub = hdr.i.u |-| 0x0100;
        hdr.o.ssub = hdr.i.s |-| 100;
        hdr.o.sadd = hdr.i.s |+| -1;
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
