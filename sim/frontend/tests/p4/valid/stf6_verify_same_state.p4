// P4_16 parser `verify(cond, err)`: the condition may use a field extracted
// earlier in the same state. When it is false the parser stops at once with
// `err`: later statements of the state do not run (the next extract does
// not happen), headers extracted before stay valid, and the unparsed bytes
// stay in the payload. v1model does not drop: ingress sees parser_error.
#include <core.p4>
#include <v1model.p4>

error { BadVersion }

header a_t {
    bit<8> ver;
    bit<8> code;   // written by ingress from parser_error
}

header b_t {
    bit<8> v;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct meta_t { }

parser VsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        verify(hdr.a.ver == 4 || hdr.a.ver == 6, error.BadVersion);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control VsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (sm.parser_error == error.NoError) {
            hdr.a.code = 0;
        } else if (sm.parser_error == error.BadVersion) {
            hdr.a.code = 1;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.a.code = 2;
        } else {
            hdr.a.code = 0xf;
        }
        if (hdr.b.isValid()) {
            hdr.b.v = hdr.b.v + 1;
        }
    }
}

control VsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control VsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(VsParser(), VsVerify(), VsIngress(), VsEgress(), VsCompute(),
         VsDeparser()) main;
