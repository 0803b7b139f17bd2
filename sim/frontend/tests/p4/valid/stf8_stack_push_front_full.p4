// P4_16 spec, header stacks: push_front(count) shifts element i to i+count
// (elements pushed past the end are lost), makes elements 0..count-1
// invalid. Emitting the stack emits its valid elements in index order.
#include <core.p4>
#include <v1model.p4>

header e_t { bit<16> v; }
header h_t {
    bit<8> op;
    bit<8> n;      // number of elements to parse
    bit<8> v2;     // 1 when element 2 is valid after the push
}

struct headers_t { h_t h; e_t[3] stk; }
struct meta_t { }

parser PfParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.n) {
            2: two;
            3: three;
            default: accept;
        }
    }
    state two {
        pkt.extract(hdr.stk.next);
        pkt.extract(hdr.stk.next);
        transition accept;
    }
    state three {
        pkt.extract(hdr.stk.next);
        pkt.extract(hdr.stk.next);
        pkt.extract(hdr.stk.next);
        transition accept;
    }
}

control PfVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PfIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.stk.push_front(2);
        hdr.h.v2 = hdr.stk[2].isValid() ? 8w1 : 8w0;
        if (hdr.h.op == 1) {
            hdr.stk[0].setValid();
            hdr.stk[0].v = 0xaaaa;
        }
        sm.egress_spec = 2;
    }
}

control PfEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control PfCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control PfDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.stk); }
}

V1Switch(PfParser(), PfVerify(), PfIngress(), PfEgress(), PfCompute(),
         PfDeparser()) main;
