// STF rule: an lpm table picks the entry with the longest matching prefix;
// /0 matches everything; a priority written on an lpm entry is ignored.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> addr;
    bit<8>  result;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LpmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LpmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LpmIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action route(bit<8> r, bit<9> port) {
        hdr.h.result = r;
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table fib {
        key = { hdr.h.addr : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }

    apply {
        fib.apply();
    }
}

control LpmEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control LpmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LpmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LpmParser(), LpmVerify(), LpmIngress(), LpmEgress(), LpmCompute(),
         LpmDeparser()) main;
