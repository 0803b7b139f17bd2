// P4_16 table apply: a table's key is evaluated when the table is applied.
// Two tables keyed on the same field hdr.h.k, applied in sequence: the
// first table's action rewrites k, so the second looks up the new value.
// STF resolves the key name hdr.h.k separately for each table.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> m;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser SkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SkVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_k(bit<8> v) {
        hdr.h.k = v;
    }
    action mark(bit<8> m) {
        hdr.h.m = m;
    }
    table first {
        key = { hdr.h.k : exact; }
        actions = { set_k; NoAction; }
        default_action = NoAction();
    }
    table second {
        key = { hdr.h.k : exact; }
        actions = { mark; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        first.apply();
        second.apply();
    }
}

control SkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SkCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(SkParser(), SkVerify(), SkIngress(), SkEgress(), SkCompute(),
         SkDeparser()) main;
