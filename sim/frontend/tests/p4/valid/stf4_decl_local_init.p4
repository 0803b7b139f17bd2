// STF rule (P4_16 spec 11.2 variables, 13.2 parser declarations, 14
// controls): a variable declared among a parser's or control's local
// declarations with an initializer gets that value each time the block is
// invoked ("the value of a variable is never preserved from one invocation
// of its enclosing block to the next"): the parser's `seed` starts at 5,
// ingress's `base` at 0x20, and a control instance applied twice starts
// its `local` at 0x10 on both calls.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> p;
    bit<8> base;
    bit<8> m1;
    bit<8> m2;
}
struct headers_t { h_t h; }
struct meta_t { }

control Mark(out bit<8> mark) {
    bit<8> local = 0x10;
    apply {
        local = local + 1;
        mark = local;
    }
}

parser DlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    bit<8> seed = 5;
    state start {
        pkt.extract(hdr.h);
        seed = seed + hdr.h.p;
        transition next;
    }
    state next {
        hdr.h.p = seed;
        transition accept;
    }
}

control DlVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Mark() mark;
    bit<8> base = 0x20;
    apply {
        hdr.h.base = base;
        mark.apply(hdr.h.m1);
        mark.apply(hdr.h.m2);
        sm.egress_spec = 2;
    }
}

control DlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DlCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DlDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(DlParser(), DlVerify(), DlIngress(), DlEgress(), DlCompute(),
         DlDeparser()) main;
