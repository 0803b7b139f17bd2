// Probe (v1model hash, as bmv2 builds the hash input): the data fields are
// packed most significant bit first into bytes, a last partial byte padded
// with zero bits at its low end; identity keeps the FIRST 8 bytes of a longer
// input (bmv2's identity reads at most 8 bytes); xor16 pads a short tail word
// with zero bytes at its end.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<80> wide;
    bit<12> twelve;
    bit<4>  pad;
    bit<24> three;
}
header out_t {
    bit<64> ident_wide;
    bit<16> ident_twelve;
    bit<16> xor_three;
    bit<16> csum_twelve;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hash(hdr.o.ident_wide, HashAlgorithm.identity, 64w0, { hdr.i.wide },
             64w0xffff_ffff_ffff_ffff);
        hash(hdr.o.ident_twelve, HashAlgorithm.identity, 16w0, { hdr.i.twelve },
             32w0x10000);
        hash(hdr.o.xor_three, HashAlgorithm.xor16, 16w0, { hdr.i.three },
             32w0x10000);
        hash(hdr.o.csum_twelve, HashAlgorithm.csum16, 16w0, { hdr.i.twelve },
             32w0x10000);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
