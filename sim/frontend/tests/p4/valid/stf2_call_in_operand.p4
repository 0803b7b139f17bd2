// STF rule (P4_16 spec, order of evaluation): the operands of a binary
// operator are evaluated left to right, also when an operand is a call with
// side effects; a plain read of a variable in the right operand sees the
// side effects of a call in the left operand. tick() increments its inout
// argument and returns the new value.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> c;
    bit<8> d1;
    bit<8> d2;
    bit<8> d3;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

bit<8> tick(inout bit<8> c) {
    c = c + 1;
    return c;
}

parser CoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> c = hdr.h.c;
        hdr.h.d1 = tick(c) ^ (tick(c) << 1);      // (c+1) ^ ((c+2) << 1)
        hdr.h.d2 = (tick(c) << 4) | (c & 0x0f);   // c is c+3 on both sides
        hdr.h.d3 = c;                             // c+3
    }
}

control CoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CoParser(), CoVerify(), CoIngress(), CoEgress(), CoCompute(),
         CoDeparser()) main;
