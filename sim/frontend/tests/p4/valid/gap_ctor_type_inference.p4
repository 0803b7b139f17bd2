#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; bit<16> b; }
struct headers_t { in_t i; }
struct meta_t { }
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control Checker<T>(inout T v)(T init) {
    apply { v = v + init; }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Checker(8w5) c8;
    Checker(16w0x100) c16;
    apply { sm.egress_spec = 2; c8.apply(hdr.i.a); c16.apply(hdr.i.b); }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
