// STF rule: bit<64> arithmetic wraps modulo 2^64 at the full width: + and -
// wrap, * keeps the low 64 bits of the product, unary - is 2^64 - x, |+|
// saturates at 2^64 - 1, << drops bits shifted past bit 63, and a shift by
// a run-time amount of 64 or more gives 0.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<64> a;
    bit<64> b;
    bit<8>  n;
}

header res_t {
    bit<8>  flags;   // 01: a + b < a (carry out), 02: a > b
    bit<64> sum;
    bit<64> diff;
    bit<64> prod;
    bit<64> shl;     // a << 63
    bit<64> sat;     // a |+| b
    bit<64> neg;     // -a
    bit<64> shr;     // a >> n
}

struct headers_t {
    in_t  i;
    res_t res;
}

struct meta_t { }

parser BwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control BwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        bit<64> a = hdr.i.a;
        bit<64> b = hdr.i.b;
        bit<8> f = 0;
        if (a + b < a) { f = f | 0x01; }
        if (a > b)     { f = f | 0x02; }
        hdr.res.flags = f;
        hdr.res.sum = a + b;
        hdr.res.diff = a - b;
        hdr.res.prod = a * b;
        hdr.res.shl = a << 63;
        hdr.res.sat = a |+| b;
        hdr.res.neg = -a;
        hdr.res.shr = a >> hdr.i.n;
    }
}

control BwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control BwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.res);
    }
}

V1Switch(BwParser(), BwVerify(), BwIngress(), BwEgress(), BwCompute(),
         BwDeparser()) main;
