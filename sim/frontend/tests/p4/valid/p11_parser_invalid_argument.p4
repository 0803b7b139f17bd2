// bmv2's parser errors for lengths that are not whole bytes (bmv2
// src/bm_sim/parser.cpp): `extract(h, n)` with n bits not a multiple of 8
// is error.ParserInvalidArgument, checked before the packet's length
// (PacketTooShort) and the varbit's maximum (HeaderTooShort); `advance(n)`
// with n not a multiple of 8 is ParserInvalidArgument before PacketTooShort.
// A `lookahead` that runs past the end of the packet is PacketTooShort
// wherever it is: in advance's amount, in a function argument, in an
// index. Like every parser error, none of them drops the packet.
#include <core.p4>
#include <v1model.p4>

header res_t {
    bit<8> code;
    bit<8> peek;
}

header op_t {
    bit<8> op;
    bit<8> n;    // a length in bits
}

header opt_t {
    varbit<32> data;
}

header b_t {
    bit<8> b;
}

struct headers_t {
    res_t  res;
    op_t   op;
    opt_t  opt;
    b_t[2] bs;
}

struct meta_t {
    bit<8> peek;
}

bit<8> twice(in bit<8> v) {
    return v + v;
}

parser IaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        transition select(hdr.op.op) {
            1 : varbit_n;
            2 : advance_n;
            3 : advance_peek;
            4 : peek_arg;
            5 : peek_index;
            default : accept;
        }
    }
    state varbit_n {
        pkt.extract(hdr.opt, (bit<32>)hdr.op.n);
        transition accept;
    }
    state advance_n {
        pkt.advance((bit<32>)hdr.op.n);
        pkt.extract(hdr.bs.next);
        transition accept;
    }
    state advance_peek {
        // Skips as many bytes as the next byte says (that byte too).
        pkt.advance((bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
    state peek_arg {
        meta.peek = twice(pkt.lookahead<bit<8>>());
        transition accept;
    }
    state peek_index {
        hdr.bs[pkt.lookahead<bit<8>>()[0:0]].setValid();
        transition accept;
    }
}

control IaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.peek = meta.peek;
        if (sm.parser_error == error.NoError) {
            hdr.res.code = 0;
        } else if (sm.parser_error == error.ParserInvalidArgument) {
            hdr.res.code = 1;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.res.code = 2;
        } else if (sm.parser_error == error.HeaderTooShort) {
            hdr.res.code = 3;
        } else {
            hdr.res.code = 0x0f;
        }
    }
}

control IaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control IaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(IaParser(), IaVerify(), IaIngress(), IaEgress(), IaCompute(),
         IaDeparser()) main;
