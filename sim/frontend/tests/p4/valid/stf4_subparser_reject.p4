// STF rule (P4_16 spec 13.8 sub-parsers, 13.6 verify, 13.5 select): the
// sub-parser's `reject` is the caller's `reject`: a failed `verify` in the
// sub-parser, or a select with no matching case there (error.NoMatch),
// ends the whole parse with that error (v1model: in parser_error); the
// caller's statements after the call do not run, headers it extracted
// before stay valid, and the unparsed bytes are payload. An `advance` in the
// sub-parser moves the caller's position.
#include <core.p4>
#include <v1model.p4>

error { BadValue }

header a_t { bit<8> v; }
header b_t { bit<8> v; }
header r_t { bit<8> err; }
struct headers_t {
    r_t r;
    a_t a;
    b_t b;
}
struct meta_t { }

parser Check(packet_in pkt, in bit<8> v) {
    state start {
        verify(v != 0xff, error.BadValue);
        transition select(v[7:4]) {
            0: accept;
            1: skip;
        }
    }
    state skip {
        pkt.advance(8);
        transition accept;
    }
}

parser SrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    Check() check;
    state start {
        pkt.extract(hdr.a);
        check.apply(pkt, hdr.a.v);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control SrVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.r.err = 0;
        } else if (sm.parser_error == error.BadValue) {
            hdr.r.err = 1;
        } else if (sm.parser_error == error.NoMatch) {
            hdr.r.err = 2;
        } else {
            hdr.r.err = 3;
        }
        sm.egress_spec = 2;
    }
}

control SrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SrCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(SrParser(), SrVerify(), SrIngress(), SrEgress(), SrCompute(),
         SrDeparser()) main;
