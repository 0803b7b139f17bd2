// Realistic PSA program: an IPv4 router.  Ingress looks the destination up
// in an LPM table, picks a next hop and an output port, and drops what it
// cannot route.  The egress deparser recomputes the IPv4 checksum after
// the TTL decrement.  The next-hop index travels to egress as "bridged"
// metadata (the normal_meta path, filled only when psa_normal() says the
// packet really goes on), where the Ethernet header is rewritten.
#include <core.p4>
#include <psa.p4>

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<16> nexthop_id_t;

header ethernet_h {
    mac_addr_t dst;
    mac_addr_t src;
    bit<16>    ether_type;
}

header ipv4_h {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      dscp_ecn;
    bit<16>     total_len;
    bit<16>     ident;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     checksum;
    ipv4_addr_t src;
    ipv4_addr_t dst;
}

struct headers_t {
    ethernet_h ethernet;
    ipv4_h     ipv4;
}

struct bridged_t { nexthop_id_t nexthop; }  // ingress -> egress, NU path
struct meta_t    { nexthop_id_t nexthop; }
struct empty_t   {}

parser RouterIngressParser(packet_in pkt,
                           out headers_t hdr,
                           inout meta_t meta,
                           in psa_ingress_parser_input_metadata_t istd,
                           in empty_t resubmit_meta,
                           in empty_t recirculate_meta) {
    state start {
        meta.nexthop = 0;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RouterIngress(inout headers_t hdr,
                      inout meta_t meta,
                      in    psa_ingress_input_metadata_t istd,
                      inout psa_ingress_output_metadata_t ostd) {
    action drop() {
        ingress_drop(ostd);
    }
    action route(nexthop_id_t nexthop, PortId_t port) {
        meta.nexthop = nexthop;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        send_to_port(ostd, port);
    }
    action punt() {
        send_to_port(ostd, PSA_PORT_CPU);
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; punt; drop; }
        default_action = drop();
        size = 4096;
    }
    apply {
        if (istd.parser_error != error.NoError) {
            drop();
        } else if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {
            ipv4_lpm.apply();
        } else if (hdr.ipv4.isValid()) {
            punt();  // TTL expired: let the CPU send the ICMP error
        } else {
            drop();
        }
    }
}

control RouterIngressDeparser(packet_out pkt,
                              out empty_t clone_i2e_meta,
                              out empty_t resubmit_meta,
                              out bridged_t normal_meta,
                              inout headers_t hdr,
                              in meta_t meta,
                              in psa_ingress_output_metadata_t istd) {
    apply {
        if (psa_normal(istd)) {
            normal_meta.nexthop = meta.nexthop;
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

parser RouterEgressParser(packet_in pkt,
                          out headers_t hdr,
                          inout meta_t meta,
                          in psa_egress_parser_input_metadata_t istd,
                          in bridged_t normal_meta,
                          in empty_t clone_i2e_meta,
                          in empty_t clone_e2e_meta) {
    state start {
        transition select(istd.packet_path) {
            PSA_PacketPath_t.NORMAL_UNICAST: copy_bridged;
            default: no_bridged;
        }
    }
    state copy_bridged {
        meta.nexthop = normal_meta.nexthop;
        transition parse_ethernet;
    }
    state no_bridged {  // CPU-bound or cloned copies carry no next hop
        meta.nexthop = 0;
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RouterEgress(inout headers_t hdr,
                     inout meta_t meta,
                     in    psa_egress_input_metadata_t istd,
                     inout psa_egress_output_metadata_t ostd) {
    action rewrite_macs(mac_addr_t smac, mac_addr_t dmac) {
        hdr.ethernet.src = smac;
        hdr.ethernet.dst = dmac;
    }
    action no_rewrite() {}
    action discard() {
        egress_drop(ostd);
    }
    table nexthop_macs {
        key = { meta.nexthop : exact; }
        actions = { rewrite_macs; no_rewrite; discard; }
        default_action = discard();
    }
    apply {
        if (istd.egress_port != PSA_PORT_CPU && hdr.ipv4.isValid()) {
            nexthop_macs.apply();
        }
    }
}

control RouterEgressDeparser(packet_out pkt,
                             out empty_t clone_e2e_meta,
                             out empty_t recirculate_meta,
                             inout headers_t hdr,
                             in meta_t meta,
                             in psa_egress_output_metadata_t istd,
                             in psa_egress_deparser_input_metadata_t edstd) {
    InternetChecksum() ipv4_csum;
    apply {
        // Ingress decremented the TTL: recompute the header checksum.
        if (hdr.ipv4.isValid()) {
            ipv4_csum.clear();
            ipv4_csum.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp_ecn,
                            hdr.ipv4.total_len, hdr.ipv4.ident,
                            hdr.ipv4.flags, hdr.ipv4.frag_offset,
                            hdr.ipv4.ttl, hdr.ipv4.protocol,
                            hdr.ipv4.src, hdr.ipv4.dst });
            hdr.ipv4.checksum = ipv4_csum.get();
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

IngressPipeline(RouterIngressParser(), RouterIngress(), RouterIngressDeparser()) ip;
EgressPipeline(RouterEgressParser(), RouterEgress(), RouterEgressDeparser()) ep;

PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
