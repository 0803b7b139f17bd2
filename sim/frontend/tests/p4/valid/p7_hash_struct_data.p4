// bmv2 / p4c (convertToList in backends/bmv2/common/helpers.cpp): a struct
// given as hash data (alone, or inside a list) is hashed as the list of its
// fields, in order, packed bit by bit; a struct nested in it in turn,
// and a header in it only while valid (bmv2 skips invalid headers' fields).
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<4>  hi;
    bit<12> lo;
}
header out_t {
    bit<16> whole;
    bit<16> in_list;
    bit<16> by_fields;
    bit<16> nested;
}
struct headers_t {
    a_t   a;
    out_t o;
}
struct key_t {
    bit<4>  hi;
    bit<12> lo;
}
struct nest_t {
    bit<8> tag;
    a_t    h;
    bit<8> tail;
}
struct meta_t {
    key_t  k;
    nest_t n;
}

parser SdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition accept;
    }
}
control SdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control SdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.k.hi = hdr.a.hi;
        meta.k.lo = hdr.a.lo;
        hdr.o.setValid();
        hash(hdr.o.whole, HashAlgorithm.crc16, 16w0, meta.k, 32w65536);
        hash(hdr.o.in_list, HashAlgorithm.crc16, 16w0, { meta.k }, 32w65536);
        hash(hdr.o.by_fields, HashAlgorithm.crc16, 16w0, { meta.k.hi, meta.k.lo },
             32w65536);
        meta.n.tag = 8w0x11;
        meta.n.h = hdr.a;
        meta.n.tail = 8w0x22;
        if (hdr.a.hi == 4w1) {
            meta.n.h.setInvalid();
        }
        hash(hdr.o.nested, HashAlgorithm.crc16, 16w0, meta.n, 32w65536);
    }
}
control SdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control SdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control SdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.o);
    }
}
V1Switch(SdParser(), SdVerify(), SdIngress(), SdEgress(), SdCompute(),
         SdDeparser()) main;
