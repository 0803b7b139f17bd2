// STF rule: int<64> arithmetic and comparisons at the sign boundary. `<`,
// `>=`, `>` on int<64> are signed (MAX > MIN), while the same bits cast to
// bit<64> compare unsigned; + and - wrap modulo 2^64 (MAX + 1 = MIN);
// -MIN = MIN; >> on int<64> is arithmetic (MIN >> 63 = -1).
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<64> a;
    int<64> b;
}

header res_t {
    bit<8>  flags;
    int<64> sum;
    int<64> diff;
    int<64> neg;
    int<64> sra;
}

struct headers_t {
    in_t  i;
    res_t res;
}

struct meta_t { }

parser SbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control SbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        int<64> a = hdr.i.a;
        int<64> b = hdr.i.b;
        bit<8> f = 0;
        if (a < b)                   { f = f | 0x01; }
        if ((bit<64>)a < (bit<64>)b) { f = f | 0x02; }
        if (a > 0)                   { f = f | 0x04; }
        if (a + 1 < a)               { f = f | 0x08; }
        if (a >= b)                  { f = f | 0x10; }
        if (a - b < 0)               { f = f | 0x20; }
        hdr.res.flags = f;
        hdr.res.sum = a + b;
        hdr.res.diff = a - b;
        hdr.res.neg = -a;
        hdr.res.sra = a >> 63;
    }
}

control SbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.res);
    }
}

V1Switch(SbParser(), SbVerify(), SbIngress(), SbEgress(), SbCompute(),
         SbDeparser()) main;
