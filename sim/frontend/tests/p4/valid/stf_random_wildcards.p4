// STF rule: `*` in an expect pattern matches any nibble and a pattern
// without a trailing `$` only has to match the start of the frame. Used
// here on v1model random(result, lo, hi), whose value is unknown but must
// lie in lo..hi (both included): the fixed nibbles of the pattern check the
// bounds; lo == hi gives that exact value.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  r1;  // random in 0x10 .. 0x1f
    bit<16> r2;  // random in 0 .. 0xff
    bit<8>  r3;  // random in 0x42 .. 0x42
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        random(hdr.h.r1, 8w0x10, 8w0x1f);
        random(hdr.h.r2, 16w0, 16w0xff);
        random(hdr.h.r3, 8w0x42, 8w0x42);
    }
}

control RwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RwParser(), RwVerify(), RwIngress(), RwEgress(), RwCompute(),
         RwDeparser()) main;
