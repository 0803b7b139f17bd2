#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; }
struct headers_t { in_t i; }
struct meta_t { }
parser Sub<H>(packet_in pkt, out H h) {
    state start { pkt.extract(h); transition accept; }
}
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub<in_t>() sp;
    state start { sp.apply(pkt, hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control Inc<T>(inout T v) { apply { v = v + 1; } }
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Inc<bit<8>>() inc;
    apply { sm.egress_spec = 2; inc.apply(hdr.i.a); }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
