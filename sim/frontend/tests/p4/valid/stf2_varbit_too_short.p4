// STF rule (P4_16 spec, two-argument extract): extract(h, n) with a run-time
// bit count n fills the varbit field with n bits; n = 0 gives a valid,
// empty field. If the packet has fewer bits left than the header needs, the
// error is PacketTooShort; otherwise, if n exceeds the varbit's maximum
// width, the error is HeaderTooShort. On an error the header stays invalid
// and the bytes stay in the payload. (Both at once: stf2_varbit_error_order.)
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

parser VtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.len);
        pkt.extract(hdr.opt, (bit<32>)hdr.len.n * 8);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control VtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VtIngress(inout headers_t hdr, inout meta_t meta,
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

control VtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control VtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.len);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.tail);
    }
}

V1Switch(VtParser(), VtVerify(), VtIngress(), VtEgress(), VtCompute(),
         VtDeparser()) main;
