// A sub-parser extracts into its out parameter, then rejects. bmv2 (p4c
// inlines sub-parsers) and the P4_16 copy-out rule keep the extracted
// header: the caller's hdr.i is valid and the ingress sees it.
#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; }
struct headers_t { in_t i; }
struct meta_t { }
parser Sub(packet_in pkt, out in_t h) {
    state start { pkt.extract(h); transition select(h.a) { 0x42: accept; default: reject; } }
}
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub() sp;
    state start { sp.apply(pkt, hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; hdr.i.a = hdr.i.a + 1; }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
