// P4_16 / bmv2 parser: `select(pkt.lookahead<bit<16>>())` needs 16 more
// bits; with fewer left the parser stops with PacketTooShort (bmv2 checks
// the lookahead bytes before building the select key). The header
// extracted earlier in the same state stays valid, the remaining byte stays
// in the payload, and ingress still runs.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> op;
    bit<8> code;
}

header b_t {
    bit<16> t;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct meta_t {
    bit<8> path;
}

parser LsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(pkt.lookahead<bit<16>>()) {
            0x0800  : parse_b;
            default : other;
        }
    }
    state parse_b {
        pkt.extract(hdr.b);
        meta.path = 1;
        transition accept;
    }
    state other {
        meta.path = 2;
        transition accept;
    }
}

control LsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> e = 0xf;
        if (sm.parser_error == error.NoError) {
            e = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            e = 1;
        }
        hdr.a.code = (e << 4) | meta.path;
    }
}

control LsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(LsParser(), LsVerify(), LsIngress(), LsEgress(), LsCompute(),
         LsDeparser()) main;
