// STF rule (P4_16 spec 8.18 header stacks, 12.8.x parsing stacks): a stack
// of size 1 is a full stack after one extract: the next `extract(s.next)`
// fails with error.StackOutOfBounds (v1model: parsing stops, the error goes
// to parser_error, s[0] stays valid and the rest of the packet is payload).
// `s.size` is 1. push_front(1) and pop_front(1) on a size-1 stack leave
// s[0] invalid (the element is shifted out).
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header res_t {
    bit<8> err;
    bit<8> size;
}
struct headers_t {
    res_t  r;
    e_t[1] s;
}
struct meta_t { }

parser S1Parser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.s.next);
        transition select(hdr.s.last.v) {
            0: accept;
            default: start;
        }
    }
}

control S1Verify(inout headers_t hdr, inout meta_t meta) { apply { } }

control S1Ingress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.r.err = 0;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.r.err = 2;
        } else {
            hdr.r.err = 0xff;
        }
        hdr.r.size = (bit<8>)hdr.s.size;
        if (hdr.s[0].v == 0x10) {
            hdr.s.push_front(1);
        } else if (hdr.s[0].v == 0x20) {
            hdr.s.pop_front(1);
        } else {
            hdr.s[0].v = hdr.s[0].v + 1;
        }
        sm.egress_spec = 2;
    }
}

control S1Egress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control S1Compute(inout headers_t hdr, inout meta_t meta) { apply { } }

control S1Deparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.s);
    }
}

V1Switch(S1Parser(), S1Verify(), S1Ingress(), S1Egress(), S1Compute(),
         S1Deparser()) main;
