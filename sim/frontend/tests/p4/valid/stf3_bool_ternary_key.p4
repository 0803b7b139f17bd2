// STF rule (ternary keys of type bool): a bool key is one bit wide; in STF
// a ternary value on it is written in binary, `0b1` (true), `0b0` (false)
// or `0b*` (either). Combined here with a bool exact key written 1/0 and
// with priorities: the larger STF number wins.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> r;
}

struct headers_t { h_t h; }
struct meta_t { bool big; }

parser BtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control BtVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = {
            meta.big            : ternary;
            hdr.h.b == 0        : exact @name("b_zero");
        }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        meta.big = hdr.h.a > 0x7f;
        sm.egress_spec = 2;
        t.apply();
    }
}

control BtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control BtCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control BtDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(BtParser(), BtVerify(), Ing(), BtEgress(), BtCompute(),
         BtDeparser()) main;
