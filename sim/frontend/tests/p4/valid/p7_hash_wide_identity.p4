// bmv2 (modify_field_with_hash_based_offset): base and max are read as
// 64-bit numbers, identity is the data's first 8 bytes, (H % max) + base wraps at 2^64, and the sum is
// written zero-extended into a result wider than 64 bits (or cut into a
// signed one).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<128> d;
}
header out_t {
    bit<128> plain;
    bit<128> wrapped;
    int<8>   signed_cut;
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser HwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}
control HwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hash(hdr.o.plain, HashAlgorithm.identity, 128w0, { hdr.i.d },
             64w0xffff_ffff_ffff_ffff);
        hash(hdr.o.wrapped, HashAlgorithm.identity, 128w5, { hdr.i.d },
             64w0xffff_ffff_ffff_ffff);
        hash(hdr.o.signed_cut, HashAlgorithm.identity, 8w0, { hdr.i.d },
             64w0xffff_ffff_ffff_ffff);
    }
}
control HwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control HwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control HwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}
V1Switch(HwParser(), HwVerify(), HwIngress(), HwEgress(), HwCompute(),
         HwDeparser()) main;
