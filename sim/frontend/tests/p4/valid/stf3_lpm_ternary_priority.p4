// STF rule (priorities): in a table with an lpm key AND a ternary key,
// entries carry priorities and the larger STF priority wins among the
// matching entries; the prefix length does not decide (bmv2 turns the lpm
// key into a mask of a ternary table). So a /8 entry beats a /24 entry
// that also matches when its priority is larger.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> dst;
    bit<8>  tos;
    bit<8>  r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser LtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control LtVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = {
            hdr.h.dst : lpm;
            hdr.h.tos : ternary;
        }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control LtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LtCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LtDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(LtParser(), LtVerify(), Ing(), LtEgress(), LtCompute(),
         LtDeparser()) main;
