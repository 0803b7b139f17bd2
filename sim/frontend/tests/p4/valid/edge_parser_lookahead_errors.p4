// STF rule: lookahead past the end of the packet is PacketTooShort, both as a
// value (x = pkt.lookahead<T>()) and as a select key; lookahead consumes
// nothing, so on the error the bytes it looked at stay as payload. The error
// reaches ingress and egress in parser_error; headers extracted before it stay
// valid, a header whose extract failed stays invalid.
#include <core.p4>
#include <v1model.p4>

error { BadMagic }

header op_t {
    bit<8> op;
}

header res_t {
    bit<8> ing_err;
    bit<8> eg_err;
    bit<16> peek;
}

header w_t {
    bit<16> w;
}

struct headers_t {
    res_t res;
    op_t  op;
    w_t   w;
}

struct meta_t {
    bit<16> peek;
}

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        transition select(hdr.op.op) {
            1 : peek_value;
            2 : peek_select;
            3 : check_magic;
            default : accept;
        }
    }
    state peek_value {
        meta.peek = pkt.lookahead<bit<16>>();
        pkt.extract(hdr.w);
        transition accept;
    }
    state peek_select {
        transition select(pkt.lookahead<bit<24>>()) {
            0xabcdef : accept;
            default : grab;
        }
    }
    state grab {
        pkt.extract(hdr.w);
        transition accept;
    }
    state check_magic {
        pkt.extract(hdr.w);
        verify(hdr.w.w == 0xcafe, error.BadMagic);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

bit<8> code_of(in error e) {
    if (e == error.NoError) {
        return 0;
    } else if (e == error.PacketTooShort) {
        return 1;
    } else if (e == error.BadMagic) {
        return 2;
    }
    return 0xff;
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.res.setValid();
        hdr.res.ing_err = code_of(sm.parser_error);
        hdr.res.peek = meta.peek;
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.res.eg_err = code_of(sm.parser_error);
    }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.op);
        pkt.emit(hdr.w);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
