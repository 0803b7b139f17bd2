// P4_16 const entries in a table with a ternary key and no explicit
// priorities: entries earlier in the list have higher priority. Two
// entries with the same key (value and mask): the first one stands, the
// later duplicate is never chosen.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> tag;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action tag(bit<8> t) {
        hdr.h.tag = t;
    }
    table t {
        key = { hdr.h.k : ternary; }
        actions = { tag; NoAction; }
        default_action = NoAction();
        const entries = {
            8w0x12 &&& 8w0xff : tag(0x02);
            8w0x10 &&& 8w0xf0 : tag(0x01);
            8w0x12 &&& 8w0xff : tag(0x04);
            8w0x10 &&& 8w0xf0 : tag(0x03);
        }
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control CdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CdParser(), CdVerify(), CdIngress(), CdEgress(), CdCompute(),
         CdDeparser()) main;
