// IPv4 router with an ARP responder in the data plane.
// - ARP requests for one of the router's interface addresses (table
//   arp_responder, keyed by the target IP and the arrival port) are answered
//   on the arrival port: opcode 2, sender/target fields swapped, the router's
//   MAC as sender. Other ARP packets are dropped.
// - IPv4: packets whose header checksum is wrong or whose TTL would expire
//   are dropped; otherwise a longest-prefix match picks the next hop and
//   port, the TTL goes down by one, the next hop's MAC comes from the
//   neighbour table and egress rewrites the source MAC per output port.
//   The header checksum is recomputed in the compute-checksum control.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_ARP  = 0x0806;
const bit<16> ETH_IPV4 = 0x0800;
const bit<16> ARP_REQUEST = 1;
const bit<16> ARP_REPLY   = 2;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header arp_h {
    bit<16> htype;
    bit<16> ptype;
    bit<8>  hlen;
    bit<8>  plen;
    bit<16> oper;
    bit<48> sha;
    bit<32> spa;
    bit<48> tha;
    bit<32> tpa;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
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
    arp_h      arp;
    ipv4_h     ipv4;
}

struct meta_t {
    bit<32> next_hop;
}

parser RouterParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_ARP:  parse_arp;
            ETH_IPV4: parse_ipv4;
            default:  accept;
        }
    }
    state parse_arp {
        pkt.extract(hdr.arp);
        transition accept;
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RouterVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == 5,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control RouterIngress(inout headers_t hdr, inout meta_t meta,
                      inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    // Turn the request into a reply in place and send it back.
    action arp_reply(bit<48> router_mac) {
        bit<32> asked_for = hdr.arp.tpa;
        hdr.arp.oper = ARP_REPLY;
        hdr.arp.tha = hdr.arp.sha;
        hdr.arp.tpa = hdr.arp.spa;
        hdr.arp.sha = router_mac;
        hdr.arp.spa = asked_for;
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = router_mac;
        sm.egress_spec = sm.ingress_port;
    }

    table arp_responder {
        key = {
            hdr.arp.tpa     : exact;
            sm.ingress_port : exact;
        }
        actions = { arp_reply; drop; }
        default_action = drop();
    }

    action route(bit<32> next_hop, bit<9> port) {
        meta.next_hop = next_hop;
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    // A directly connected subnet: the next hop is the destination itself.
    action connected(bit<9> port) {
        route(hdr.ipv4.dst, port);
    }

    table ipv4_lpm {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; connected; drop; }
        default_action = drop();
    }

    action set_dmac(bit<48> mac) {
        hdr.eth.dst = mac;
    }

    table neighbour {
        key = { meta.next_hop : exact; }
        actions = { set_dmac; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.arp.isValid()) {
            if (hdr.arp.oper == ARP_REQUEST && hdr.arp.ptype == ETH_IPV4) {
                arp_responder.apply();
            } else {
                drop();
            }
        } else if (hdr.ipv4.isValid()) {
            if (sm.checksum_error == 1 || hdr.ipv4.ihl != 5) {
                drop();
            } else if (hdr.ipv4.ttl <= 1) {
                drop();
            } else if (ipv4_lpm.apply().hit) {
                neighbour.apply();
            }
        } else {
            drop();
        }
    }
}

control RouterEgress(inout headers_t hdr, inout meta_t meta,
                     inout standard_metadata_t sm) {
    action set_smac(bit<48> mac) {
        hdr.eth.src = mac;
    }

    table port_mac {
        key = { sm.egress_port : exact; }
        actions = { set_smac; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.ipv4.isValid()) {
            port_mac.apply();
        }
    }
}

control RouterCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control RouterDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.arp);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(RouterParser(), RouterVerify(), RouterIngress(), RouterEgress(),
         RouterCompute(), RouterDeparser()) main;
