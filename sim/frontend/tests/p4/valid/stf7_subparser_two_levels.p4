// STF rule (P4_16 spec, sub-parsers): a parser may apply a sub-parser that
// itself applies another; each continues at its caller's packet position,
// inout arguments carry values down and back up, an out header the
// sub-parser never extracts comes back invalid, and an error raised two
// levels down (verify, or PacketTooShort on extract) ends the whole parse
// with that error in standard_metadata.parser_error; bytes not extracted
// become the payload.
#include <core.p4>
#include <v1model.p4>

error { BadAcc }

header r_t { bit<8> acc; bit<8> err; }
header a_t { bit<8> v; }
header b_t { bit<8> v; }
header c_t { bit<16> v; }
header t_t { bit<8> v; }

struct headers_t {
    r_t r;
    a_t a;
    b_t b;
    c_t c;
    t_t t;
}

struct meta_t { bit<8> acc; }

parser Lvl2(packet_in pkt, out c_t c, inout bit<8> acc) {
    state start {
        verify(acc != 0x80, error.BadAcc);
        pkt.extract(c);
        acc = acc + c.v[7:0];
        transition accept;
    }
}

parser Lvl1(packet_in pkt, out b_t b, out c_t c, inout bit<8> acc) {
    Lvl2() l2;
    state start {
        pkt.extract(b);
        acc = acc + b.v;
        transition select(b.v) {
            0: accept;
            default: deeper;
        }
    }
    state deeper {
        l2.apply(pkt, c, acc);
        transition accept;
    }
}

parser SpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    Lvl1() l1;
    state start {
        pkt.extract(hdr.a);
        meta.acc = hdr.a.v;
        l1.apply(pkt, hdr.b, hdr.c, meta.acc);
        pkt.extract(hdr.t);
        transition accept;
    }
}

control SpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 4;
        hdr.r.setValid();
        hdr.r.acc = meta.acc;
        if (sm.parser_error == error.NoError) {
            hdr.r.err = 0;
        } else {
            hdr.r.acc = 0;
            hdr.b.setInvalid();
            hdr.c.setInvalid();
            if (sm.parser_error == error.PacketTooShort) {
                hdr.r.err = 1;
            } else if (sm.parser_error == error.BadAcc) {
                hdr.r.err = 2;
            } else {
                hdr.r.err = 0xff;
            }
        }
    }
}

control SpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.c);
        pkt.emit(hdr.t);
    }
}

V1Switch(SpParser(), SpVerify(), SpIngress(), SpEgress(), SpCompute(),
         SpDeparser()) main;
