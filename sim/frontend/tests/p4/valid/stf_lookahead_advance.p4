// STF rule: lookahead<T>() reads the next bits without consuming them (the
// same bits are then extracted); advance(n) consumes n bits without
// extracting them, so they are not part of the payload and vanish from the
// output. The advance amount can come from a field at run time.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> kind;
    bit<8> len;
    bit<8> pads;   // written by ingress: padding bytes skipped
    bit<8> peek2;  // written by ingress: 2nd byte seen by lookahead<bit<16>>
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<8> pads;
    bit<8> peek2;
}

parser LaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<bit<8>>()) {
            0       : skip_pad;
            default : parse_h;
        }
    }
    state skip_pad {
        pkt.advance(8);
        meta.pads = meta.pads + 1;
        transition start;
    }
    state parse_h {
        bit<16> two = pkt.lookahead<bit<16>>();
        meta.peek2 = two[7:0];
        pkt.extract(hdr.h);
        transition select(hdr.h.kind) {
            0xff    : skip_len;
            default : accept;
        }
    }
    state skip_len {
        pkt.advance((bit<32>)hdr.h.len << 3);
        transition accept;
    }
}

control LaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.h.pads = meta.pads;
        hdr.h.peek2 = meta.peek2;
    }
}

control LaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LaParser(), LaVerify(), LaIngress(), LaEgress(), LaCompute(),
         LaDeparser()) main;
