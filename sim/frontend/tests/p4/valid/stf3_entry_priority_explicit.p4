// P4_16 spec 1.2.4, "Entry priorities": const entries may carry
// `priority = N:`. With the default largest_priority_wins (true) the entry
// with the larger priority wins among matching entries, whatever the order
// they are listed in (the "first listed wins" rule applies only when no
// entry has a priority).
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
        @noWarn("entries_out_of_priority_order")
        const entries = {
            priority = 10: 0x10 &&& 0xf0 : set(1);
            priority = 30: 0x12 &&& 0xff : set(2);
            priority = 29: 0x1f &&& 0xff : set(3);
            priority = 20: 0x02 &&& 0x0f : set(4);
            priority = 40: 0x33 &&& 0xff : set(5);
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
