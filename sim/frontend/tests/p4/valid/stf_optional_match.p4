// STF rule: optional match kind. An entry's optional key is either an exact
// value or a full wildcard (the key left out of the
// `add` line); entries carry priorities and the larger STF priority wins;
// no match runs the default action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> vlan;
    bit<8>  proto;
    bit<8>  result;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser OpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control OpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    table acl {
        key = {
            hdr.h.vlan  : optional;
            hdr.h.proto : optional;
        }
        actions = { set_result; }
        default_action = set_result(0xee);
    }

    apply {
        sm.egress_spec = 1;
        acl.apply();
    }
}

control OpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control OpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(OpParser(), OpVerify(), OpIngress(), OpEgress(), OpCompute(),
         OpDeparser()) main;
