#include <core.p4>
#include <v1model.p4>
const bit<8> K = 2;
const int BIG = 0x104;
header in_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
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
    Adder(step + 1) first;
    Adder(step * 2) second;
    apply { first.apply(v); second.apply(v); }
}
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Adder(8w3 << 1) shifted;
    Adder((bit<8>)BIG) cast;
    Adder(K + 8w1) konst;
    Twice(K * 3) tw;
    apply {
        sm.egress_spec = 2;
        shifted.apply(hdr.i.a);
        cast.apply(hdr.i.b);
        konst.apply(hdr.i.c);
        tw.apply(hdr.i.d);
    }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
