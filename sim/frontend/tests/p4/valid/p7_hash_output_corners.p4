// bmv2 (modify_field_with_hash_based_offset, calculations.cpp):
// result = (H % max) + base on 64-bit numbers, then cut to the result's
// width: a result narrower than the algorithm keeps H's low bits; base +
// H % max may overflow the result and wrap; max 1 gives base. Data of an
// odd byte count: csum16 and xor16 pad the last word with a zero byte; a
// 12-bit field is hashed as two bytes, its last four bits zero.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<32> d;
    bit<24> d3;
    bit<40> d5;
    bit<12> t12;
    bit<4>  n4;
}
header out_t {
    bit<8>  low8;
    bit<8>  wrap;
    bit<16> max1;
    bit<16> cs3;
    bit<16> x5;
    bit<32> c32_12;
    bit<16> c16_12;
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser HoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}
control HoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 3;
        hdr.o.setValid();
        hash(hdr.o.low8, HashAlgorithm.crc32, 8w0, { hdr.i.d }, 33w0x1_0000_0000);
        hash(hdr.o.wrap, HashAlgorithm.crc16, 8w250, { hdr.i.d }, 32w100);
        hash(hdr.o.max1, HashAlgorithm.crc32, 16w0x1234, { hdr.i.d }, 32w1);
        hash(hdr.o.cs3, HashAlgorithm.csum16, 16w0, { hdr.i.d3 }, 32w65536);
        hash(hdr.o.x5, HashAlgorithm.xor16, 16w0, { hdr.i.d5 }, 32w65536);
        hash(hdr.o.c32_12, HashAlgorithm.crc32, 32w0, { hdr.i.t12 }, 33w0x1_0000_0000);
        hash(hdr.o.c16_12, HashAlgorithm.crc16, 16w0, { hdr.i.t12 }, 32w65536);
    }
}
control HoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control HoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}
V1Switch(HoParser(), HoVerify(), HoIngress(), HoEgress(), HoCompute(),
         HoDeparser()) main;
