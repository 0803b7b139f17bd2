// A header with more than one `varbit` field (issue 17, family 5): p4c
// accepts the declaration, its use as a field, `isValid()` and `emit` (an
// invalid header emits nothing); what it refuses is extracting such a
// header, since `extract(h, n)` fills the one varbit of `h`
// (hasVarbitsOrUnions in p4c's frontends/p4/typeChecking/typeCheckTypes.cpp).
// Written for Janus from p4c's type checker.
#include <core.p4>
#include <v1model.p4>

header opts_t { bit<8> kind; varbit<64> first; varbit<32> second; }
header one_t { bit<8> len; varbit<64> data; }
header out_t { bit<8> sizes; bit<8> valid; }
struct headers_t { out_t o; opts_t opts; one_t one; }
struct meta_t { }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.o);
        pkt.extract(hdr.one, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        // 8 + 64 + 32 bits at most, 8 at least.
        hdr.o.sizes = (bit<8>)hdr.opts.maxSizeInBytes() + (bit<8>)opts_t.minSizeInBits();
        hdr.o.valid = hdr.opts.isValid() ? 8w1 : 8w0;
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
