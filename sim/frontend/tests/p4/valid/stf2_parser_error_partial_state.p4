// STF rule: a parser error (failed extract or verify) ends parsing in the
// middle of a state: the statements of that state before the failing call
// have run (their metadata writes reach ingress), the statements after it
// have not. v1model then runs ingress with the error in parser_error.
#include <core.p4>
#include <v1model.p4>

error { Bad }

header res_t {
    bit<8> err;
    bit<8> flags;
}

header h1_t {
    bit<8> x;
    bit<8> y;
}

header h2_t {
    bit<32> v;
}

struct headers_t {
    res_t res;
    h1_t  h1;
    h2_t  h2;
}

struct meta_t {
    bit<8> flags;
}

parser PsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.flags = 0x01;
        pkt.extract(hdr.h1);
        meta.flags = meta.flags | 0x02;
        transition select(hdr.h1.x) {
            1       : s2;
            2       : s3;
            default : accept;
        }
    }
    state s2 {
        meta.flags = meta.flags | 0x04;
        pkt.extract(hdr.h2);
        meta.flags = meta.flags | 0x08;
        transition accept;
    }
    state s3 {
        meta.flags = meta.flags | 0x10;
        verify(hdr.h1.y != 0xff, error.Bad);
        meta.flags = meta.flags | 0x20;
        transition accept;
    }
}

control PsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.flags = meta.flags;
        if (sm.parser_error == error.NoError) {
            hdr.res.err = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.res.err = 1;
        } else if (sm.parser_error == error.Bad) {
            hdr.res.err = 3;
        } else {
            hdr.res.err = 0x0f;
        }
    }
}

control PsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control PsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.res);
        pkt.emit(hdr.h1);
        pkt.emit(hdr.h2);
    }
}

V1Switch(PsParser(), PsVerify(), PsIngress(), PsEgress(), PsCompute(),
         PsDeparser()) main;
