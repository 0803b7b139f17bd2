// STF rule: a switch statement on a bit<8>, an int<8> and an error value
// runs the first case whose label equals the value; labels without a body
// fall through to the next body; with no matching label and no default,
// nothing runs.
#include <core.p4>
#include <v1model.p4>

error { Odd }

header h_t {
    bit<8> k;
    int<8> d;
    bit<8> tag;
    bit<8> out1;
    bit<8> out2;
    bit<8> out3;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        verify(hdr.h.tag != 0xff, error.Odd);
        transition accept;
    }
}

control SvVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        switch (hdr.h.k) {
            1:
            2: {
                hdr.h.out1 = 0x12;
            }
            8w0x10 + 1: {
                hdr.h.out1 = 0x11;
            }
            default: {
                hdr.h.out1 = 0xdd;
            }
        }
        switch (hdr.h.d) {
            -1: {
                hdr.h.out2 = 0xf1;
            }
            1: {
                hdr.h.out2 = 0x01;
            }
        }
        switch (sm.parser_error) {
            error.NoError: {
                hdr.h.out3 = 0x00;
            }
            error.Odd: {
                hdr.h.out3 = 0x0d;
            }
            default: {
                hdr.h.out3 = 0xee;
            }
        }
    }
}

control SvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SvCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SvDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SvParser(), SvVerify(), SvIngress(), SvEgress(), SvCompute(),
         SvDeparser()) main;
