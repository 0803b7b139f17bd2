// STF rule (setdefault): `setdefault <table> <action>(<params>)` replaces
// the default action and its data, taking effect for the next packet; a
// later setdefault replaces it again (also with another action). Entries
// that hit are not affected. Parameters are named, in any order.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  k;
    bit<8>  x;
    bit<16> y;
}

struct headers_t { h_t h; }
struct meta_t { }

parser SdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control SdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action one(bit<8> v) { hdr.h.x = v; }
    action two(bit<16> b, bit<8> a, bit<9> port) {
        hdr.h.x = a;
        hdr.h.y = b;
        sm.egress_spec = port;
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { one; two; }
        default_action = one(0x11);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control SdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SdDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(SdParser(), SdVerify(), Ing(), SdEgress(), SdCompute(),
         SdDeparser()) main;
