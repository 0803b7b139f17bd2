// Two-level rate limiting with two-rate three-colour meters (RFC 2698).
// Ingress policer: ports listed in port_policy are metered in packets by
// port_meter[ingress port]. GREEN passes; YELLOW passes but has its DSCP
// rewritten to the scavenger class CS1 (8); RED is dropped. Ports without
// a policy are not metered.
// Egress shaper: egress_meter[egress port] measures bytes; a RED copy is
// dropped in egress, YELLOW and GREEN pass.
// Forwarding is an exact match on the IPv4 destination. Drops of both
// stages are counted; the IPv4 checksum is recomputed (DSCP may change).
#include <core.p4>
#include <v1model.p4>

const bit<2> GREEN  = 0;
const bit<2> YELLOW = 1;
const bit<2> RED    = 2;
const bit<6> DSCP_CS1 = 8;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
}

struct meta_t {
    bit<2> ingress_color;
    bit<2> egress_color;
}

parser RlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    meter(16, MeterType.packets) port_meter;
    counter(16, CounterType.packets) policed;

    action drop() {
        mark_to_drop(sm);
    }

    action police() {
        port_meter.execute_meter((bit<32>)sm.ingress_port, meta.ingress_color);
    }
    table port_policy {
        key = { sm.ingress_port : exact; }
        actions = { police; NoAction; }
        default_action = NoAction();
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    table ipv4_fwd {
        key = { hdr.ipv4.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        meta.ingress_color = GREEN;
        port_policy.apply();
        if (meta.ingress_color == RED) {
            policed.count((bit<32>)sm.ingress_port);
            drop();
            return;
        }
        if (meta.ingress_color == YELLOW) {
            hdr.ipv4.dscp = DSCP_CS1;
        }
        ipv4_fwd.apply();
    }
}

control RlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    meter(16, MeterType.bytes) egress_meter;
    counter(16, CounterType.packets_and_bytes) shaped;

    apply {
        egress_meter.execute_meter((bit<32>)sm.egress_port, meta.egress_color);
        if (meta.egress_color == RED) {
            shaped.count((bit<32>)sm.egress_port);
            mark_to_drop(sm);
        }
    }
}

control RlCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control RlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(RlParser(), RlVerify(), RlIngress(), RlEgress(), RlCompute(),
         RlDeparser()) main;
