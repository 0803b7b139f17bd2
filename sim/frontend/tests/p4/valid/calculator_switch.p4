// Realistic v1model program: an in-network calculator. A custom header
// carries an opcode and two operands; ingress computes the result with a
// `switch` on the opcode value (P4 1.2.2+) and reflects the packet.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETYPE_CALC = 0x1234;

enum bit<8> calc_op_t {
    ADD  = 0x2b,  // '+'
    SUB  = 0x2d,  // '-'
    AND  = 0x26,  // '&'
    OR   = 0x7c,  // '|'
    XOR  = 0x5e,  // '^'
    SADD = 0x53   // 'S': saturating add
}

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header calc_t {
    bit<8>    p;
    bit<8>    four;
    bit<8>    version;
    calc_op_t op;
    bit<32>   operand_a;
    bit<32>   operand_b;
    bit<32>   result;
}

struct headers_t {
    ethernet_t eth;
    calc_t     calc;
}

struct meta_t { }

parser CalcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETYPE_CALC : check_calc;
            default    : accept;
        }
    }
    state check_calc {
        transition select(pkt.lookahead<calc_t>().p,
                          pkt.lookahead<calc_t>().four,
                          pkt.lookahead<calc_t>().version) {
            (0x50, 0x34, 0x01) : parse_calc;  // 'P', '4', version 1
            default            : accept;
        }
    }
    state parse_calc {
        pkt.extract(hdr.calc);
        transition accept;
    }
}

control CalcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CalcIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action reflect(bit<32> value) {
        hdr.calc.result = value;
        bit<48> tmp = hdr.eth.dst;
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = tmp;
        sm.egress_spec = sm.ingress_port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    apply {
        if (!hdr.calc.isValid()) {
            drop();
            return;
        }
        bit<32> a = hdr.calc.operand_a;
        bit<32> b = hdr.calc.operand_b;
        switch (hdr.calc.op) {
            calc_op_t.ADD:  { reflect(a + b); }
            calc_op_t.SUB:  { reflect(a - b); }
            calc_op_t.AND:  { reflect(a & b); }
            calc_op_t.OR:   { reflect(a | b); }
            calc_op_t.XOR:  { reflect(a ^ b); }
            calc_op_t.SADD: { reflect(a |+| b); }
            default:        { drop(); }
        }
    }
}

control CalcEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control CalcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CalcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.calc);
    }
}

V1Switch(CalcParser(), CalcVerify(), CalcIngress(), CalcEgress(),
         CalcCompute(), CalcDeparser()) main;
