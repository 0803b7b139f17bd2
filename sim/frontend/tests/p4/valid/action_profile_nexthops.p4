// v1model program: next-hop sharing through an action_profile used as a
// table `implementation`, plus a keyless table that only runs its default.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<8>  ver_ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<16> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4;
}

struct meta_t {
    bit<16> vrf;
}

parser ApParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control ApVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ApIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action_profile(32w256) nexthop_profile;

    action drop() {
        mark_to_drop(sm);
    }

    action set_vrf(bit<16> vrf) {
        meta.vrf = vrf;
    }

    // No key: the control plane only ever changes the default action.
    table default_vrf {
        actions = { set_vrf; }
        default_action = set_vrf(16w0);
    }

    action set_nexthop(bit<48> dmac, bit<9> port) {
        hdr.eth.dst = dmac;
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table routes {
        key = {
            meta.vrf     : exact;
            hdr.ipv4.dst : lpm;
        }
        actions = { set_nexthop; drop; }
        implementation = nexthop_profile;
        size = 65536;
        default_action = drop();
    }

    apply {
        default_vrf.apply();
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
    }
}

control ApEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ApCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ApDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(ApParser(), ApVerify(), ApIngress(), ApEgress(), ApCompute(),
         ApDeparser()) main;
