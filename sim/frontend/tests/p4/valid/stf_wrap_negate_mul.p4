// STF rule: bit<W> and int<W> arithmetic wraps modulo 2^W. Unary minus on
// bit<8> gives 2^8 - x; on int<8> it negates, with -(-128) = -128; `*`
// keeps the low W bits for both signednesses; `~` flips every bit.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    int<8> s;
    int<8> t;
}

header out_t {
    bit<8> neg_a;   // -a
    bit<8> not_a;   // ~a
    bit<8> mul_u;   // a * b
    int<8> neg_s;   // -s
    int<8> mul_s;   // s * t
    int<8> sub_s;   // s - t
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser WnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control WnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.neg_a = -hdr.i.a;
        hdr.o.not_a = ~hdr.i.a;
        hdr.o.mul_u = hdr.i.a * hdr.i.b;
        hdr.o.neg_s = -hdr.i.s;
        hdr.o.mul_s = hdr.i.s * hdr.i.t;
        hdr.o.sub_s = hdr.i.s - hdr.i.t;
    }
}

control WnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control WnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control WnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(WnParser(), WnVerify(), WnIngress(), WnEgress(), WnCompute(),
         WnDeparser()) main;
