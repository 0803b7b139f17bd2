// STF rule (v1model hash, as bmv2): HashAlgorithm.crc32_custom and
// crc16_custom are CRCs whose parameters the control plane may change;
// until it does, bmv2 starts them with the standard parameters
// (crc32_custom: poly 0x04c11db7, init and final xor 0xffffffff, reflected;
// crc16_custom: poly 0x8005, init 0, xor 0, reflected), so they give the
// same values as crc32 and crc16.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<32> a;
    bit<32> b;
}

header out_t {
    bit<32> c32;
    bit<32> c32c;
    bit<16> c16;
    bit<16> c16c;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser CcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control CcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hash(hdr.o.c32, HashAlgorithm.crc32, 32w0, { hdr.i.a, hdr.i.b }, 33w0x1_0000_0000);
        hash(hdr.o.c32c, HashAlgorithm.crc32_custom, 32w0, { hdr.i.a, hdr.i.b }, 33w0x1_0000_0000);
        hash(hdr.o.c16, HashAlgorithm.crc16, 16w0, { hdr.i.a, hdr.i.b }, 32w65536);
        hash(hdr.o.c16c, HashAlgorithm.crc16_custom, 16w0, { hdr.i.a, hdr.i.b }, 32w65536);
    }
}

control CcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(CcParser(), CcVerify(), CcIngress(), CcEgress(), CcCompute(),
         CcDeparser()) main;
