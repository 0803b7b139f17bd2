// P4_16 spec (table properties, @defaultonly): an action annotated
// @defaultonly in a table's action list can only be the default action;
// STF `setdefault` may choose it with new data. A `const default_action`
// runs on every miss. Entries added with `add` use the other actions.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> r1;
    bit<8> r2;
}

struct headers_t { h_t h; }
struct meta_t { }

parser DoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control DoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action hit1(bit<8> v) { hdr.h.r1 = v; }
    action dflt1(bit<8> v) { hdr.h.r1 = v | 0x80; }
    table t1 {
        key = { hdr.h.k : exact; }
        actions = { hit1; @defaultonly dflt1; }
        default_action = dflt1(1);
    }

    action hit2(bit<8> v) { hdr.h.r2 = v; }
    action miss2(bit<8> v) { hdr.h.r2 = v; }
    table t2 {
        key = { hdr.h.k : exact; }
        actions = { hit2; miss2; }
        const default_action = miss2(0x33);
    }

    apply {
        sm.egress_spec = 2;
        t1.apply();
        t2.apply();
    }
}

control DoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DoDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(DoParser(), DoVerify(), Ing(), DoEgress(), DoCompute(),
         DoDeparser()) main;
