#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; bit<8> b; }
header tail_t { bit<8> t; }
struct headers_t { in_t i; tail_t tail; }
struct meta_t { bit<8> saved; }
// Generic blocks passed to the package without type arguments: their H and
// M come from where they are passed (V1Switch's H and M, which the other
// arguments decide).
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition select(hdr.i.a) { 1: tail; default: accept; } }
    state tail { pkt.extract(hdr.tail); transition accept; }
}
control GVerify<H, M>(inout H hdr, inout M meta) { apply { } }
control GIngress<H, M>(inout H hdr, inout M meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 3; }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control GCompute<H, M>(inout H hdr, inout M meta) { apply { } }
control GDeparser<H>(packet_out pkt, in H hdr) { apply { pkt.emit(hdr); } }
V1Switch(PParser(), GVerify(), GIngress(), PEgress(), GCompute(), GDeparser()) main;
