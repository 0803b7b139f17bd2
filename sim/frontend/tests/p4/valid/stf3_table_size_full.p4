// simple_switch + the p4c STF driver: a table's `size` is its capacity in
// bmv2 (max_size); an `add` into a full table fails with TABLE_FULL, which
// the driver does not treat as fatal, so the entry is simply not
// installed: later packets that would match it miss.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser SzParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control SzVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; }
        default_action = set(0xee);
        size = 2;
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control SzEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SzCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SzDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(SzParser(), SzVerify(), Ing(), SzEgress(), SzCompute(),
         SzDeparser()) main;
