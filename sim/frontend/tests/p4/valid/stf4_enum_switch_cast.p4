// STF rule (P4_16 spec 8.3 enums, 12.7 switch): a serializable enum field
// can be the expression of a switch whose labels are its members; a label
// without a body falls through to the next body; a value with no label
// (an unnamed value, or a member without a label) runs `default`. A cast
// from the underlying type gives a possibly unnamed value that equals no
// member. The enum converts implicitly to its underlying type in a shift.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Op { ADD = 1, SUB = 2, XOR = 3, AND = 4, NOP = 0x80 }

header h_t {
    Op     op;
    bit<8> a;
    bit<8> b;
    bit<8> r;
    Op     next;
    bit<8> named;
    bit<8> sh;
}
struct headers_t { h_t h; }
struct meta_t { }

parser EsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control EsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        switch (hdr.h.op) {
            Op.ADD: { hdr.h.r = hdr.h.a + hdr.h.b; }
            Op.SUB: { hdr.h.r = hdr.h.a - hdr.h.b; }
            Op.XOR:
            Op.AND: { hdr.h.r = hdr.h.a ^ hdr.h.b; }
            default: { hdr.h.r = 0xee; }
        }
        hdr.h.next = (Op)((bit<8>)hdr.h.op + 1);
        if (hdr.h.next == Op.ADD || hdr.h.next == Op.SUB ||
            hdr.h.next == Op.XOR || hdr.h.next == Op.AND ||
            hdr.h.next == Op.NOP) {
            hdr.h.named = 1;
        } else {
            hdr.h.named = 0;
        }
        hdr.h.sh = hdr.h.op << 1;
        sm.egress_spec = 2;
    }
}

control EsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control EsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(EsParser(), EsVerify(), EsIngress(), EsEgress(), EsCompute(),
         EsDeparser()) main;
