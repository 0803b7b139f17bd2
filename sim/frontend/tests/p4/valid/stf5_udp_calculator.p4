// A calculator service answered by the switch itself, carried in UDP
// (destination port 9999). The request header holds a magic byte 'P', a
// version, an opcode, a status byte and operands a and b; the switch fills
// in `result` and `status` and sends the datagram back where it came from:
// MACs, IP addresses and UDP ports swapped, TTL reset to 64, IPv4 and UDP
// checksums recomputed (the UDP one over the pseudo-header, the UDP and
// calculator headers and any trailing bytes).
// Opcodes ('+', '-', '*', '&', '|', '^', '<', '>', 'm' min, 'M' max) come
// from const entries; an unknown opcode is answered with status 1; '+' and
// '*' whose true result does not fit 32 bits answer with status 2.
// Requests with a wrong magic or version are dropped. Other IPv4 traffic is
// forwarded by destination. Replies are counted per opcode.
#include <core.p4>
#include <v1model.p4>

const bit<16> CALC_PORT = 9999;
const bit<8>  STATUS_OK = 0;
const bit<8>  STATUS_BAD_OP = 1;
const bit<8>  STATUS_OVERFLOW = 2;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src;
    bit<32> dst;
}

header udp_h {
    bit<16> sport;
    bit<16> dport;
    bit<16> length;
    bit<16> checksum;
}

header calc_h {
    bit<8>  magic;
    bit<8>  version;
    bit<8>  op;
    bit<8>  status;
    bit<32> a;
    bit<32> b;
    bit<32> result;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    udp_h      udp;
    calc_h     calc;
}

struct meta_t { }

parser CalcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, 17): parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition select(hdr.udp.dport) {
            CALC_PORT: parse_calc;
            default:   accept;
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
    counter(256, CounterType.packets) per_op;

    action drop() {
        mark_to_drop(sm);
    }

    action answer(bit<32> value, bit<8> status) {
        hdr.calc.result = value;
        hdr.calc.status = status;
    }
    action op_add() {
        bit<33> wide = (bit<33>)hdr.calc.a + (bit<33>)hdr.calc.b;
        answer(wide[31:0], wide[32:32] == 1 ? STATUS_OVERFLOW : STATUS_OK);
    }
    action op_sub() { answer(hdr.calc.a - hdr.calc.b, STATUS_OK); }
    action op_mul() {
        bit<64> wide = (bit<64>)hdr.calc.a * (bit<64>)hdr.calc.b;
        answer(wide[31:0], wide[63:32] != 0 ? STATUS_OVERFLOW : STATUS_OK);
    }
    action op_and() { answer(hdr.calc.a & hdr.calc.b, STATUS_OK); }
    action op_or()  { answer(hdr.calc.a | hdr.calc.b, STATUS_OK); }
    action op_xor() { answer(hdr.calc.a ^ hdr.calc.b, STATUS_OK); }
    action op_shl() { answer(hdr.calc.a << hdr.calc.b[4:0], STATUS_OK); }
    action op_shr() { answer(hdr.calc.a >> hdr.calc.b[4:0], STATUS_OK); }
    action op_min() { answer(hdr.calc.a < hdr.calc.b ? hdr.calc.a : hdr.calc.b, STATUS_OK); }
    action op_max() { answer(hdr.calc.a > hdr.calc.b ? hdr.calc.a : hdr.calc.b, STATUS_OK); }
    action op_unknown() { answer(0, STATUS_BAD_OP); }

    table calculate {
        key = { hdr.calc.op : exact; }
        actions = { op_add; op_sub; op_mul; op_and; op_or; op_xor; op_shl;
                    op_shr; op_min; op_max; op_unknown; }
        const entries = {
            0x2b : op_add();   // '+'
            0x2d : op_sub();   // '-'
            0x2a : op_mul();   // '*'
            0x26 : op_and();   // '&'
            0x7c : op_or();    // '|'
            0x5e : op_xor();   // '^'
            0x3c : op_shl();   // '<'
            0x3e : op_shr();   // '>'
            0x6d : op_min();   // 'm'
            0x4d : op_max();   // 'M'
        }
        const default_action = op_unknown();
    }

    // Send the datagram back to where it came from.
    action reflect() {
        bit<48> mac = hdr.eth.dst;
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = mac;
        bit<32> addr = hdr.ipv4.dst;
        hdr.ipv4.dst = hdr.ipv4.src;
        hdr.ipv4.src = addr;
        hdr.ipv4.ttl = 64;
        bit<16> port = hdr.udp.dport;
        hdr.udp.dport = hdr.udp.sport;
        hdr.udp.sport = port;
        sm.egress_spec = sm.ingress_port;
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    table ipv4_fwd {
        key = { hdr.ipv4.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.calc.isValid()) {
            if (hdr.calc.magic != 0x50 || hdr.calc.version != 1) {
                drop();
            } else {
                calculate.apply();
                per_op.count((bit<32>)hdr.calc.op);
                reflect();
            }
        } else if (hdr.ipv4.isValid()) {
            ipv4_fwd.apply();
        } else {
            drop();
        }
    }
}

control CalcEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control CalcCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.calc.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(hdr.calc.isValid(),
            { hdr.ipv4.src, hdr.ipv4.dst, 8w0, hdr.ipv4.protocol,
              hdr.udp.length,
              hdr.udp.sport, hdr.udp.dport, hdr.udp.length,
              hdr.calc.magic, hdr.calc.version, hdr.calc.op, hdr.calc.status,
              hdr.calc.a, hdr.calc.b, hdr.calc.result },
            hdr.udp.checksum, HashAlgorithm.csum16);
    }
}

control CalcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.calc);
    }
}

V1Switch(CalcParser(), CalcVerify(), CalcIngress(), CalcEgress(),
         CalcCompute(), CalcDeparser()) main;
