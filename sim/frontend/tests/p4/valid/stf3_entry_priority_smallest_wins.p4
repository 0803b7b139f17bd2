// P4_16 spec 1.2.4, "Entry priorities": with the table property
// largest_priority_wins = false, the entry with the SMALLER priority wins
// among matching entries; unnumbered entries get the previous priority
// plus priority_delta (10 here).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser EpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control EpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }

    table t {
        key = { hdr.h.k : ternary; }
        actions = { set; }
        default_action = set(0xee);
        largest_priority_wins = false;
        priority_delta = 10;
        @noWarn("entries_out_of_priority_order")
        const entries = {
            priority = 5: 0x40 &&& 0xf0 : set(1);
                          0x44 &&& 0xff : set(2);  // 15
            priority = 1: 0x04 &&& 0x0f : set(3);
            priority = 9: 0x45 &&& 0xff : set(4);
        }
    }

    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control EpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control EpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(EpParser(), EpVerify(), Ing(), EpEgress(), EpCompute(),
         EpDeparser()) main;
