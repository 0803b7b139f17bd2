#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> idx; bit<8> v; }
struct headers_t { in_t i; }
struct meta_t { }
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
// Externs sized by expressions of a constructor parameter: with n = 2 the
// counter has 4 cells and the register 3.
control Stats(inout in_t h)(bit<32> n) {
    counter(n * 2, CounterType.packets) per_idx;
    register<bit<8>>(n + 1) last;
    apply {
        per_idx.count((bit<32>)h.idx);
        if (h.idx < 3) {
            last.write((bit<32>)h.idx, h.v);
            last.read(h.v, 0);
        }
    }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Stats(32w2) stats;
    apply { sm.egress_spec = 2; stats.apply(hdr.i); }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
