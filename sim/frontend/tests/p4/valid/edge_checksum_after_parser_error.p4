// STF rule (simple_switch): a parser error does not skip checksum
// verification. The verify_checksum control still runs over the headers the
// parser had made valid, so a bad checksum in a header extracted before the
// error still sets checksum_error, next to parser_error.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> a;
    bit<16> b;
    bit<16> csum;
}

header t_t {
    bit<32> t;
}

header res_t {
    bit<8> perr;
    bit<8> cerr;
}

struct headers_t {
    res_t res;
    h_t   h;
    t_t   t;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.t);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.h.isValid(), { hdr.h.a, hdr.h.b }, hdr.h.csum,
                        HashAlgorithm.csum16);
    }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.res.setValid();
        hdr.res.perr = (sm.parser_error == error.PacketTooShort) ? 8w1 : 8w0;
        hdr.res.cerr = (bit<8>)sm.checksum_error;
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.h);
        pkt.emit(hdr.t);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
