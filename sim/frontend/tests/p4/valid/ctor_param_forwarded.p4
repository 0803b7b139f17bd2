#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; }
struct headers_t { in_t i; }
struct meta_t { bit<8> acc; }
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control Adder(inout bit<8> v)(bit<8> amount) {
    apply { v = v + amount; }
}
control Twice(inout bit<8> v)(bit<8> step) {
    Adder(step) first;
    apply { first.apply(v); }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Adder(8w5) direct;
    Twice(8w3) tw;
    apply {
        sm.egress_spec = 2;
        direct.apply(hdr.i.a);
        tw.apply(hdr.i.a);
    }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
