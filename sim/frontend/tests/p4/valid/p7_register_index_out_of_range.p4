// bmv2 (register_read / register_write primitives): an index at or past
// the register's size writes nothing and reads nothing (the destination
// keeps its value); cells of int<N> and of more than 64 bits keep their
// bits exactly.
#include <core.p4>
#include <v1model.p4>

header d_t {
    bit<8>  op;
    bit<8>  idx;
    bit<16> v16;
    int<12> vi;
    bit<4>  pad;
    bit<72> w;
}
struct headers_t {
    d_t d;
}
struct meta_t { }

parser RoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.d);
        transition accept;
    }
}
control RoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control RoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<16>>(4) r16;
    register<int<12>>(4) ri;
    register<bit<72>>(4) rw;
    apply {
        bit<32> i = (bit<32>) hdr.d.idx;
        if (hdr.d.op == 1) {
            r16.write(i, hdr.d.v16);
            ri.write(i, hdr.d.vi);
            rw.write(i, hdr.d.w);
        }
        r16.read(hdr.d.v16, i);
        ri.read(hdr.d.vi, i);
        rw.read(hdr.d.w, i);
        sm.egress_spec = 2;
    }
}
control RoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control RoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control RoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.d);
    }
}
V1Switch(RoParser(), RoVerify(), RoIngress(), RoEgress(), RoCompute(),
         RoDeparser()) main;
