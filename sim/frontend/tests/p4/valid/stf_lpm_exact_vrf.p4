// STF rule: a table keyed on an exact field and an lpm field. Only entries
// whose exact key matches compete, and among them the longest prefix wins;
// a longer prefix in another VRF does not count. A /0 entry is a per-VRF
// default route.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  vrf;
    bit<32> dst;
    bit<8>  route_id;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LvVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action route(bit<8> id, bit<9> port) {
        hdr.h.route_id = id;
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table fib {
        key = {
            hdr.h.vrf : exact;
            hdr.h.dst : lpm;
        }
        actions = { route; drop; }
        default_action = drop();
    }

    apply {
        fib.apply();
    }
}

control LvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LvCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LvDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LvParser(), LvVerify(), LvIngress(), LvEgress(), LvCompute(),
         LvDeparser()) main;
