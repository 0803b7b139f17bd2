// STF rule (P4_16 spec, order of evaluation): the arguments of a call
// (function or action) are evaluated left to right; an `in` argument's value
// is taken when it is evaluated, so a side effect of a later argument does
// not change an earlier one. Calls with side effects (tick() increments its
// inout argument) make the order visible. (Operands: stf2_call_in_operand.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> c;
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
    bit<8> r4;
    bit<8> r5;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

bit<8> tick(inout bit<8> c) {
    c = c + 1;
    return c;
}

// The first argument goes to the high nibble, the second to the low one.
bit<8> pack(in bit<8> hi, in bit<8> lo) {
    return (hi << 4) | (lo & 0x0f);
}

parser AeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control AeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action record(in bit<8> x, in bit<8> y) {
        hdr.h.r5 = pack(x, y);
    }
    apply {
        sm.egress_spec = 1;
        bit<8> c = hdr.h.c;
        hdr.h.r1 = pack(tick(c), tick(c));  // pack(c+1, c+2)
        hdr.h.r2 = tick(c);                 // c+3
        hdr.h.r3 = pack(c, tick(c));        // pack(c+3, c+4)
        hdr.h.r4 = c;                       // c+4
        record(tick(c), tick(c));           // pack(c+5, c+6)
    }
}

control AeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control AeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(AeParser(), AeVerify(), AeIngress(), AeEgress(), AeCompute(),
         AeDeparser()) main;
