// STF rule (P4_16 spec 13.5 select expressions): select keys may be of type
// bool, including `h.isValid()` and comparisons, with `true`/`false`
// keysets, alone or in a tuple with `_`; cases are tried in order and the
// first match wins. Here whether `a` was extracted decides the next state.
#include <core.p4>
#include <v1model.p4>

header t_t {
    bit<6> pad;
    bit<1> want_flag;
    bit<1> want_a;
}
header a_t { bit<8> v; }
header b_t { bit<8> v; }
header c_t { bit<8> v; }
header r_t { bit<8> path; }
struct headers_t {
    t_t t;
    a_t a;
    b_t b;
    c_t c;
    r_t r;
}
struct meta_t { bit<8> path; }

parser SbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.t);
        transition select((bool)hdr.t.want_a) {
            true: pa;
            false: mid;
        }
    }
    state pa {
        pkt.extract(hdr.a);
        transition mid;
    }
    state mid {
        transition select(hdr.a.isValid(), hdr.t.want_flag == 1) {
            (true, true): pb;
            (false, true): pc;
            (_, false): done;
        }
    }
    state pb {
        pkt.extract(hdr.b);
        meta.path = 1;
        transition accept;
    }
    state pc {
        pkt.extract(hdr.c);
        meta.path = 2;
        transition accept;
    }
    state done {
        meta.path = hdr.a.isValid() ? 8w3 : 8w4;
        transition accept;
    }
}

control SbVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.setValid();
        hdr.r.path = meta.path;
        sm.egress_spec = 2;
    }
}

control SbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SbCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.t);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.c);
    }
}

V1Switch(SbParser(), SbVerify(), SbIngress(), SbEgress(), SbCompute(),
         SbDeparser()) main;
