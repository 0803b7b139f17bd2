// STF rule (P4_16 spec, lookahead): lookahead<T>() with a header type T
// reads the next sizeof(T) bits without consuming them; a field of the
// result (`pkt.lookahead<tlv_t>().type`) can drive select or be assigned.
// If the packet is shorter than T, lookahead fails with PacketTooShort and
// nothing is extracted. (The whole header value: stf2_lookahead_header_value.)
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
    bit<8> mark;
}

struct headers_t {
    res_t res;
    a_t   a;
    b_t   b;
}

struct meta_t {
    bit<8> path;
    bit<8> len;
    bit<8> mark;
}

parser LhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<tlv_t>().type) {
            1       : p_a;
            2       : p_b;
            default : accept;
        }
    }
    state p_a {
        meta.path = 1;
        meta.len = pkt.lookahead<tlv_t>().len;
        meta.mark = 1;
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

control LhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.err = sm.parser_error == error.PacketTooShort ? 8w1 :
                      (sm.parser_error == error.NoError ? 8w0 : 8w0x0f);
        hdr.res.path = meta.path;
        hdr.res.len = meta.len;
        hdr.res.mark = meta.mark;
    }
}

control LhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LhCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(LhParser(), LhVerify(), LhIngress(), LhEgress(), LhCompute(),
         LhDeparser()) main;
