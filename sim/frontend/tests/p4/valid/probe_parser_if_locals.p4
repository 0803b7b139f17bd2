// Probe (P4_16 parser statements): a parser state may hold local variables,
// assignments and if/else statements before its transition; select on
// lookahead<bit<8>>() without consuming; advance() skips bits; verify() with
// a user error stops parsing with that error, which ingress reads from
// standard_metadata.parser_error (the packet is not dropped).
#include <core.p4>
#include <v1model.p4>

error { TagTooBig }
header tag_t { bit<8> kind; bit<8> len; }
header body_t { bit<16> v; }
header res_t { bit<8> code; bit<8> sum; }
struct headers_t { tag_t tag; body_t body; res_t res; }
struct meta_t { bit<8> sum; bit<8> path; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        bit<8> peek = pkt.lookahead<bit<8>>();
        if (peek == 0xee) {
            meta.path = 1;
        } else if (peek > 0x80) {
            meta.path = 2;
        } else {
            meta.path = 3;
        }
        transition select(peek) {
            0xee: skip;
            default: parse_tag;
        }
    }
    state skip {
        pkt.advance(16);
        transition parse_tag;
    }
    state parse_tag {
        pkt.extract(hdr.tag);
        bit<8> s = hdr.tag.kind + hdr.tag.len;
        meta.sum = s;
        verify(hdr.tag.len < 8w10, error.TagTooBig);
        pkt.extract(hdr.body);
        transition accept;
    }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.res.setValid();
        hdr.res.sum = meta.sum;
        if (sm.parser_error == error.TagTooBig) {
            hdr.res.code = 0xa0 | meta.path;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.res.code = 0xb0 | meta.path;
        } else if (sm.parser_error == error.NoError) {
            hdr.res.code = meta.path;
        } else {
            hdr.res.code = 0xff;
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
