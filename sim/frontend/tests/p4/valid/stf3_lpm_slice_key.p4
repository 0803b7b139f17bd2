// STF rule: an lpm key may be a slice of a field (`addr[23:8]`, named by
// @name in STF). The prefix counts from the slice's most significant bit
// (bit 23 of addr), over the slice's 16 bits; bits outside the slice take
// no part in the match.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> addr;
    bit<8>  r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser LsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control LsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = { hdr.h.addr[23:8] : lpm @name("mid"); }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control LsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(LsParser(), LsVerify(), Ing(), LsEgress(), LsCompute(),
         LsDeparser()) main;
