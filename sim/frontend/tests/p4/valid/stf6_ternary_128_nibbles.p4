// STF ternary keys on a 128-bit field: each written hex digit is a mask
// nibble F, each `*` a mask nibble 0; the `*` runs here cross the 64-bit
// word boundary (bit 64) of the key. The larger STF priority wins.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<128> k;
    bit<8>   tag;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser TnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action tag(bit<8> t) {
        hdr.h.tag = t;
    }
    table t {
        key = { hdr.h.k : ternary; }
        actions = { tag; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control TnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control TnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(TnParser(), TnVerify(), TnIngress(), TnEgress(), TnCompute(),
         TnDeparser()) main;
