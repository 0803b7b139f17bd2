#include <core.p4>
#include <v1model.p4>

const bit<16> P4CALC_ETYPE = 0x1234;
const bit<8>  P4CALC_P     = 0x50;   // 'P'
const bit<8>  P4CALC_4     = 0x34;   // '4'
const bit<8>  P4CALC_VER   = 0x01;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header p4calc_t {
    bit<8>  p;
    bit<8>  four;
    bit<8>  ver;
    bit<8>  op;
    bit<32> operand_a;
    bit<32> operand_b;
    bit<32> res;
}

struct headers {
    ethernet_t ethernet;
    p4calc_t   p4calc;
}

struct metadata {
    bit<8> errors;
}

parser CalcParser(packet_in packet, out headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            P4CALC_ETYPE: check_p4calc;
            default: accept;
        }
    }
    state check_p4calc {
        transition select(packet.lookahead<p4calc_t>().p,
                          packet.lookahead<p4calc_t>().four,
                          packet.lookahead<p4calc_t>().ver) {
            (P4CALC_P, P4CALC_4, P4CALC_VER): parse_p4calc;
            default: accept;
        }
    }
    state parse_p4calc {
        packet.extract(hdr.p4calc);
        transition accept;
    }
}

control CalcVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control CalcIngress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    action send_back(bit<32> result) {
        bit<48> tmp = hdr.ethernet.dstAddr;
        hdr.p4calc.res = result;
        hdr.ethernet.dstAddr = hdr.ethernet.srcAddr;
        hdr.ethernet.srcAddr = tmp;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }
    action operation_add() {
        send_back(hdr.p4calc.operand_a + hdr.p4calc.operand_b);
    }
    action operation_sub() {
        send_back(hdr.p4calc.operand_a - hdr.p4calc.operand_b);
    }
    action operation_and() {
        send_back(hdr.p4calc.operand_a & hdr.p4calc.operand_b);
    }
    action operation_or() {
        send_back(hdr.p4calc.operand_a | hdr.p4calc.operand_b);
    }
    action operation_xor() {
        send_back(hdr.p4calc.operand_a ^ hdr.p4calc.operand_b);
    }
    action operation_sat_add() {
        send_back(hdr.p4calc.operand_a |+| hdr.p4calc.operand_b);
    }
    action operation_shl() {
        send_back(hdr.p4calc.operand_a << hdr.p4calc.operand_b[4:0]);
    }
    action operation_max() {
        send_back(hdr.p4calc.operand_a > hdr.p4calc.operand_b
                  ? hdr.p4calc.operand_a : hdr.p4calc.operand_b);
    }
    action operation_drop() {
        mark_to_drop(standard_metadata);
    }

    table calculate {
        key = {
            hdr.p4calc.op: ternary;
        }
        actions = {
            operation_add;
            operation_sub;
            operation_and;
            operation_or;
            operation_xor;
            operation_sat_add;
            operation_shl;
            operation_max;
            operation_drop;
        }
        const default_action = operation_drop();
        const entries = {
            0x2b &&& 0xff: operation_add();      // '+'
            0x2d: operation_sub();               // '-'
            0x26: operation_and();               // '&'
            0x7c: operation_or();                // '|'
            0x5e: operation_xor();               // '^'
            0x73: operation_sat_add();           // 's'
            0x3c: operation_shl();               // '<'
            0x40 &&& 0xf0: operation_max();      // '@' .. 'O'
        }
    }

    apply {
        if (hdr.p4calc.isValid()) {
            switch (calculate.apply().action_run) {
                operation_drop: {
                    meta.errors = meta.errors + 1;
                }
                default: {
                    hdr.p4calc.ver = hdr.p4calc.ver + 1;
                }
            }
        } else {
            mark_to_drop(standard_metadata);
        }
    }
}

control CalcEgress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control CalcCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control CalcDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.p4calc);
    }
}

V1Switch(CalcParser(), CalcVerify(), CalcIngress(), CalcEgress(),
         CalcCompute(), CalcDeparser()) main;
