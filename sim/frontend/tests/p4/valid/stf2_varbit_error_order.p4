// STF rule (P4_16 spec, "Variable-width extraction" pseudo-code): the
// two-argument extract checks the packet length first
// (verify(lengthInBits >= lastBitNeeded, error.PacketTooShort)) and the
// varbit's maximum size second (error.HeaderTooShort). So a length that
// is both beyond the packet's end and above the maximum gives
// PacketTooShort. bmv2 (parser.cpp, extract_VL) checks in the same order.
#include <core.p4>
#include <v1model.p4>

header res_t {
    bit<8> code;
}

header len_t {
    bit<8> n;    // option length in bytes
}

header opt_t {
    varbit<32> data;
}

header tail_t {
    bit<8> t;
}

struct headers_t {
    res_t  res;
    len_t  len;
    opt_t  opt;
    tail_t tail;
}

struct meta_t { }

parser VoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.len);
        pkt.extract(hdr.opt, (bit<32>)hdr.len.n * 8);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control VoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.res.code = 0;
        } else if (sm.parser_error == error.HeaderTooShort) {
            hdr.res.code = 1;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.res.code = 2;
        } else {
            hdr.res.code = 0x0f;
        }
    }
}

control VoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control VoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.len);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.tail);
    }
}

V1Switch(VoParser(), VoVerify(), VoIngress(), VoEgress(), VoCompute(),
         VoDeparser()) main;
