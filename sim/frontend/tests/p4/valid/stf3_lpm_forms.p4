// STF rule (lpm values): an lpm key is written `value/len` (hex or
// decimal value, any length, also not a multiple of 4) or as hex/binary
// with trailing `*` digits, whose prefix length is 4 (hex) or 1 (binary)
// times the number of digits before the stars. The longest matching
// prefix wins.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> dst;
    bit<8>  tag;
    bit<8>  r1;
    bit<8>  r2;
}

struct headers_t { h_t h; }
struct meta_t { }

parser LfParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control LfVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set1(bit<8> v) { hdr.h.r1 = v; }
    action set2(bit<8> v) { hdr.h.r2 = v; }
    table routes {
        key = { hdr.h.dst : lpm; }
        actions = { set1; }
        default_action = set1(0xee);
    }
    table tags {
        key = { hdr.h.tag : lpm; }
        actions = { set2; }
        default_action = set2(0xee);
    }
    apply {
        sm.egress_spec = 2;
        routes.apply();
        tags.apply();
    }
}

control LfEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LfCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LfDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(LfParser(), LfVerify(), Ing(), LfEgress(), LfCompute(),
         LfDeparser()) main;
