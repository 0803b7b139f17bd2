// STF rule: table keys may be arbitrary side-effect-free expressions, each
// evaluated when the table is applied: a slice, a cast of a shifted value
// (the cast keeps the low bits), isValid() (a bool key, 1/0 in STF), and a
// sum that wraps modulo 2^8. Every key must match for a hit; a miss runs
// the default action with its compile-time argument.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;    // 1: an opt header follows
    bit<8> res;
}

header opt_t {
    bit<8> v;
}

struct headers_t {
    h_t   h;
    opt_t opt;
}

struct meta_t { }

parser KeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.c) {
            1       : parse_opt;
            default : accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt);
        transition accept;
    }
}

control KeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control KeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_res(bit<8> v) {
        hdr.h.res = v;
    }
    table classify {
        key = {
            hdr.h.a[7:4]              : exact @name("a_hi");
            (bit<4>)(hdr.h.b >> 2)    : exact @name("b_mid");
            hdr.opt.isValid()         : exact @name("opt_valid");
            hdr.h.a + hdr.h.b         : exact @name("sum");
        }
        actions = { set_res; }
        default_action = set_res(0xee);
    }
    apply {
        sm.egress_spec = 1;
        classify.apply();
    }
}

control KeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control KeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control KeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.opt);
    }
}

V1Switch(KeParser(), KeVerify(), KeIngress(), KeEgress(), KeCompute(),
         KeDeparser()) main;
