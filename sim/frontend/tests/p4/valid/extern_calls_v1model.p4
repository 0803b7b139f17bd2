// v1model program exercising the v1model utility externs that have no state:
// log_msg (with and without arguments), assert, assume, random, hash with
// several algorithms, digest with a struct-valued expression, and truncate.
#include <core.p4>
#include <v1model.p4>

header data_h {
    bit<32> a;
    bit<32> b;
    bit<8>  ttl;
}

struct headers_t {
    data_h data;
}

struct report_t {
    bit<32> a;
    bit<9>  port;
}

struct meta_t {
    bit<16> h16;
    bit<32> h32;
    bit<8>  coin;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        log_msg("ingress start");
        log_msg("a={} b={} port={}", { hdr.data.a, hdr.data.b, sm.ingress_port });
        assume(hdr.data.isValid());
        assert(sm.ingress_port != 511);

        hash(meta.h16, HashAlgorithm.crc16, 16w0, { hdr.data.a }, 17w65536);
        hash(meta.h32, HashAlgorithm.crc32, 32w0, { hdr.data.a, hdr.data.b }, 33w0x1_0000_0000);
        hash(meta.h16, HashAlgorithm.csum16, 16w0, { hdr.data.b }, 17w65536);
        hash(meta.h16, HashAlgorithm.identity, 16w0, { hdr.data.a[15:0] }, 17w65536);
        random(meta.coin, 8w0, 8w1);

        if (meta.coin == 1) {
            digest<report_t>(1, { a = hdr.data.a, port = sm.ingress_port });
        }
        if (hdr.data.ttl == 0) {
            truncate(32w16);
        }
        sm.egress_spec = (bit<9>)meta.h16[3:0];
    }
}

control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control CC(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.data);
    }
}

V1Switch(P(), VC(), Ing(), Eg(), CC(), D()) main;
