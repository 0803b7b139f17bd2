// STF rule (P4_16 spec 8.18 and 13.9 header stacks in parsers): a stack
// nested two structs deep is filled with `extract(p.q.stk.next)`; `.last`
// names the element just extracted and `.lastIndex` (bit<32>) its index,
// both usable in a select key and in assignments in a later state; parser
// locals declared at parser scope keep their values from state to state
// within one packet; if/else statements run inside parser states.
#include <core.p4>
#include <v1model.p4>

header e_t {
    bit<7> v;
    bit<1> bos;
}
header info_t {
    bit<8> last_idx;
    bit<8> last_v;
    bit<8> sum;
    bit<8> big;
}
header tr_t { bit<8> v; }
struct inner_t {
    e_t[4] stk;
}
struct outer_t {
    inner_t q;
    tr_t    tr;
}
struct headers_t {
    info_t  info;
    outer_t p;
}
struct meta_t { }

parser PlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    bit<8> sum = 0;
    bit<8> big = 0;
    state start {
        pkt.extract(hdr.p.q.stk.next);
        sum = sum + (bit<8>)hdr.p.q.stk.last.v;
        if (hdr.p.q.stk.last.v > 0x40) {
            big = big + 1;
        } else {
            big = big | 0x80;
        }
        transition select(hdr.p.q.stk.last.bos) {
            0: start;
            1: after;
        }
    }
    state after {
        hdr.info.setValid();
        hdr.info.last_idx = (bit<8>)hdr.p.q.stk.lastIndex;
        hdr.info.last_v = (bit<8>)hdr.p.q.stk.last.v;
        hdr.info.sum = sum;
        hdr.info.big = big;
        transition select(hdr.p.q.stk.lastIndex) {
            0: trailer;
            default: accept;
        }
    }
    state trailer {
        pkt.extract(hdr.p.tr);
        transition accept;
    }
}

control PlVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}

control PlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control PlCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control PlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.info);
        pkt.emit(hdr.p);
    }
}

V1Switch(PlParser(), PlVerify(), PlIngress(), PlEgress(), PlCompute(),
         PlDeparser()) main;
