// STF rule (p4c on v1model): an explicit `transition reject` records no error
// (parser_error stays NoError); parsing stops there, headers extracted so far
// stay valid and ingress runs.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8> op;
    bit<8> err;
}

header w_t {
    bit<8> w;
}

struct headers_t {
    op_t op;
    w_t  w;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        transition select(hdr.op.op) {
            1 : reject;
            default : more;
        }
    }
    state more {
        pkt.extract(hdr.w);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.op.err = ((sm.parser_error == error.NoError) ? 8w0 : 8w1)
                     | (hdr.w.isValid() ? 8w2 : 8w0);
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
        pkt.emit(hdr.op);
        pkt.emit(hdr.w);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
