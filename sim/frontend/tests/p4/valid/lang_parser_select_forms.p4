// Parser select forms: a serializable enum field selected by enum labels,
// tuple keys with masks (&&&), ranges (..), `_` and default, a value_set,
// select on a lookahead value and on a cast expression, parser locals with
// if/else, verify with a program-defined error, reject reaching ingress
// with parser_error set and the headers extracted before it kept.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Proto { A = 0x0a, B = 0x0b, C = 0x0c }
error { BadLength }

header base_t { Proto p; bit<8> len; }
header opt_t { bit<8> v; }
header out_t { bit<8> path; bit<8> err; bit<8> local; bit<8> optv; }
struct headers_t { base_t b; opt_t o1; opt_t o2; out_t o; }
struct meta_t { bit<8> path; bit<8> local; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    value_set<bit<8>>(4) special;
    state start {
        pkt.extract(hdr.b);
        bit<8> twice = hdr.b.len + hdr.b.len;
        if (twice > 0x20) {
            meta.local = 1;
        } else {
            meta.local = 2;
        }
        transition select(hdr.b.p) {
            Proto.A: by_tuple;
            Proto.B: by_lookahead;
            Proto.C: checked;
            default: accept;
        }
    }
    state by_tuple {
        transition select(hdr.b.len, hdr.b.len[0:0]) {
            (0x10 &&& 0xf0, 1): p_mask;
            (0x20 .. 0x2f, _): p_range;
            (special, _): p_set;
            default: accept;
        }
    }
    state p_mask { meta.path = 1; transition accept; }
    state p_range { meta.path = 2; transition accept; }
    state p_set { meta.path = 3; transition accept; }
    state by_lookahead {
        transition select(pkt.lookahead<bit<8>>(), (bit<4>)(hdr.b.len >> 4)) {
            (0xaa, _): two_opts;
            (_, 4w0xf): one_opt;
            default: accept;
        }
    }
    state two_opts { pkt.extract(hdr.o1); pkt.extract(hdr.o2); meta.path = 4; transition accept; }
    state one_opt { pkt.extract(hdr.o1); meta.path = 5; transition accept; }
    state checked {
        verify(hdr.b.len < 0x80, error.BadLength);
        pkt.extract(hdr.o1);
        meta.path = 6;
        transition select(hdr.o1.v) {
            0: reject;
            default: accept;
        }
    }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.path = meta.path;
        hdr.o.local = meta.local;
        if (sm.parser_error == error.NoError) { hdr.o.err = 0; }
        else if (sm.parser_error == error.BadLength) { hdr.o.err = 1; }
        else if (sm.parser_error == error.PacketTooShort) { hdr.o.err = 2; }
        else if (sm.parser_error == error.NoMatch) { hdr.o.err = 3; }
        else { hdr.o.err = 0xff; }
        hdr.o.optv = hdr.o1.isValid() ? hdr.o1.v : 8w0xee;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
