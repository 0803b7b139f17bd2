// Extracting into a stack element by a constant index does not move the
// stack's next index: a later `extract(hdr.s.next)` still fills s[0]
// (P4_16 spec, header stacks: only `next` advances nextIndex). `last` is
// then s[0], and `lastIndex` 0.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> tag;
}

header e_t {
    bit<8> v;
}

header out_t {
    bit<8> last_v;
    bit<8> valid_bits;
}

struct headers_t {
    in_t   i;
    e_t[3] s;
    out_t  o;
}

struct meta_t {
    bit<32> last_index;
    bit<8>  last_v;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        pkt.extract(hdr.s[2]);
        pkt.extract(hdr.s.next);
        meta.last_index = hdr.s.lastIndex;
        meta.last_v = hdr.s.last.v;
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
        hdr.o.last_v = meta.last_v;
        hdr.o.valid_bits = (bit<8>)meta.last_index << 4;
        if (hdr.s[0].isValid()) { hdr.o.valid_bits = hdr.o.valid_bits | 1; }
        if (hdr.s[1].isValid()) { hdr.o.valid_bits = hdr.o.valid_bits | 2; }
        if (hdr.s[2].isValid()) { hdr.o.valid_bits = hdr.o.valid_bits | 4; }
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
