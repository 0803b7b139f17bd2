// STF rule (v1model hash): hash(result, algo, base, data, max) writes
// base + (hash(data) % max), where data is the list's fields concatenated
// bit by bit (padded with zero bits to whole bytes) and hashed as bmv2 does:
// crc16 (CRC-16/ARC), crc32 (standard CRC-32), identity, csum16, xor16.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<32> a;
    bit<16> b;
    bit<4>  n;
    bit<4>  m;
}

header out_t {
    bit<16> crc16;
    bit<32> crc32;
    bit<16> ident;
    bit<16> csum;
    bit<16> xor;
    bit<16> ranged;
    bit<16> odd;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser HaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control HaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hash(hdr.o.crc16, HashAlgorithm.crc16, 16w0, { hdr.i.a, hdr.i.b }, 32w65536);
        hash(hdr.o.crc32, HashAlgorithm.crc32, 32w0, { hdr.i.a, hdr.i.b }, 33w0x1_0000_0000);
        hash(hdr.o.ident, HashAlgorithm.identity, 16w0, { hdr.i.b }, 32w65536);
        hash(hdr.o.csum, HashAlgorithm.csum16, 16w0, { hdr.i.a, hdr.i.b }, 32w65536);
        hash(hdr.o.xor, HashAlgorithm.xor16, 16w0, { hdr.i.a, hdr.i.b }, 32w65536);
        // base + (crc16 % 100)
        hash(hdr.o.ranged, HashAlgorithm.crc16, 16w1000, { hdr.i.a, hdr.i.b }, 32w100);
        // 12 bits of data: hashed as two bytes, the last 4 bits zero.
        hash(hdr.o.odd, HashAlgorithm.crc16, 16w0, { hdr.i.n, hdr.i.b[7:0] }, 32w65536);
    }
}

control HaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(HaParser(), HaVerify(), HaIngress(), HaEgress(), HaCompute(),
         HaDeparser()) main;
