// bmv2 (p4c passes a header given as hash data as the list of its
// fields): hash over a whole header hashes its fields packed in order;
// fields of metadata structs pack as any field; crc32_custom and
// crc16_custom start with the standard CRC-32 and CRC-16 parameters, on
// unaligned data too; a header that is invalid gives no data at all
// (crc32 of nothing is 0, csum16 of nothing ffff).
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<16> x;
    bit<8>  y;
}
header b_t {
    bit<12> t12;
    bit<4>  pad;
}
header opt_t {
    bit<16> v;
}
header out_t {
    bit<32> c32_hdr;
    bit<16> c16_struct;
    bit<32> c32_12;
    bit<32> c32_none;
    bit<16> cs_none;
}
struct headers_t {
    a_t   a;
    b_t   b;
    opt_t opt;
    out_t o;
}
struct s_t {
    bit<4>  hi;
    bit<12> lo;
}
struct meta_t {
    s_t s;
}

parser HdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        transition accept;
    }
}
control HdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.s.hi = hdr.a.y[7:4];
        meta.s.lo = hdr.b.t12;
        hdr.o.setValid();
        hash(hdr.o.c32_hdr, HashAlgorithm.crc32_custom, 32w0, hdr.a, 33w0x1_0000_0000);
        hash(hdr.o.c16_struct, HashAlgorithm.crc16_custom, 16w0, { meta.s.hi, meta.s.lo },
             32w65536);
        hash(hdr.o.c32_12, HashAlgorithm.crc32_custom, 32w0, { hdr.b.t12 },
             33w0x1_0000_0000);
        hash(hdr.o.c32_none, HashAlgorithm.crc32, 32w0, hdr.opt, 33w0x1_0000_0000);
        hash(hdr.o.cs_none, HashAlgorithm.csum16, 16w0, hdr.opt, 32w65536);
    }
}
control HdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control HdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.o);
    }
}
V1Switch(HdParser(), HdVerify(), HdIngress(), HdEgress(), HdCompute(),
         HdDeparser()) main;
