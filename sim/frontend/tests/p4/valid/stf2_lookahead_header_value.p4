// STF rule (P4_16 spec, lookahead): lookahead<T>() with a header type T
// returns a VALID header value holding the next bits, without consuming
// them ("the headers values in the returned result are always valid"); it
// can be assigned whole to a local header, which is then valid and holds
// those fields. If the packet is shorter than T, lookahead fails with
// PacketTooShort. (Member access only: stf2_lookahead_header_type.)
#include <core.p4>
#include <v1model.p4>

header tlv_t {
    bit<8> type;
    bit<8> len;
}

header a_t {
    bit<8> type;
    bit<8> len;
    bit<8> data;
}

header b_t {
    bit<8>  type;
    bit<8>  len;
    bit<16> data;
}

header res_t {
    bit<8> err;
    bit<8> path;
    bit<8> len;
    bit<8> valid;
}

struct headers_t {
    res_t res;
    a_t   a;
    b_t   b;
}

struct meta_t {
    bit<8> path;
    bit<8> len;
    bit<8> valid;
}

parser LvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<tlv_t>().type) {
            1       : p_a;
            2       : p_b;
            default : accept;
        }
    }
    state p_a {
        tlv_t peek = pkt.lookahead<tlv_t>();
        meta.path = 1;
        meta.len = peek.len;
        meta.valid = peek.isValid() ? 8w1 : 8w0;
        pkt.extract(hdr.a);
        transition accept;
    }
    state p_b {
        meta.path = 2;
        meta.len = pkt.lookahead<tlv_t>().len;
        pkt.extract(hdr.b);
        transition accept;
    }
}

control LvVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.err = sm.parser_error == error.PacketTooShort ? 8w1 :
                      (sm.parser_error == error.NoError ? 8w0 : 8w0x0f);
        hdr.res.path = meta.path;
        hdr.res.len = meta.len;
        hdr.res.valid = meta.valid;
    }
}

control LvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LvCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LvDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(LvParser(), LvVerify(), LvIngress(), LvEgress(), LvCompute(),
         LvDeparser()) main;
