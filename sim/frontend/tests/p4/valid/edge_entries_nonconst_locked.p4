// A table whose program gives `entries` without `const`: p4c writes them
// into bmv2's JSON like const ones and bmv2 then refuses control-plane adds
// (IMMUTABLE_TABLE_ENTRIES), so the STF `add` below installs nothing. A
// table without program entries takes the same add.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k; bit<8> v; }
struct headers_t { h_t h; }
struct meta_t { }

parser LkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control LkVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control LkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_v(bit<8> v) { hdr.h.v = v; }
    table seeded {
        key = { hdr.h.k : exact; }
        actions = { set_v; NoAction; }
        default_action = NoAction();
        entries = {
            1 : set_v(0x11);
        }
    }
    table empty {
        key = { hdr.h.k : exact; }
        actions = { set_v; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        if (hdr.h.v == 0) {
            seeded.apply();
        } else {
            empty.apply();
        }
    }
}

control LkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LkCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LkDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(LkParser(), LkVerify(), LkIngress(), LkEgress(), LkCompute(), LkDeparser()) main;
