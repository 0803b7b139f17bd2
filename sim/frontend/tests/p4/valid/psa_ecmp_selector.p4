// Realistic PSA program: ECMP routing.  The route table's entries point at
// groups of an ActionSelector, which picks one next hop per flow by hashing
// the `selector` key fields (the 5-tuple) with CRC16.  Per-port source MACs
// come from a table implemented by an ActionProfile.  A Hash extern gives
// each flow a 16-bit id (looked up to demote known elephant flows to a lower
// class of service) and a trace bucket (get_hash with base and max); a
// Random extern samples about 1 in 1024 routed packets to the CPU through
// the predefined clone session PSA_CLONE_SESSION_TO_CPU.
#include <core.p4>
#include <psa.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header l4_ports_h { bit<16> sport; bit<16> dport; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; l4_ports_h ports; }
struct meta_t    { bit<16> flow_id; bit<16> sport; bit<16> dport; }
struct empty_t   {}

parser EcmpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  in psa_ingress_parser_input_metadata_t istd,
                  in empty_t resubmit_meta, in empty_t recirculate_meta) {
    state start {
        meta.flow_id = 0;
        meta.sport = 0;
        meta.dport = 0;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (5, 0, 6)  : parse_ports;   // TCP, no options, first fragment
            (5, 0, 17) : parse_ports;   // UDP
            default    : accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        meta.sport = hdr.ports.sport;
        meta.dport = hdr.ports.dport;
        transition accept;
    }
}

control EcmpIngress(inout headers_t hdr, inout meta_t meta,
                    in psa_ingress_input_metadata_t istd,
                    inout psa_ingress_output_metadata_t ostd) {
    ActionSelector(PSA_HashAlgorithm_t.CRC16, 1024, 14) ecmp_selector;
    ActionProfile(256) smac_profile;
    Hash<bit<16>>(PSA_HashAlgorithm_t.CRC32) flow_hash;
    Random<bit<10>>(0, 1023) sampler;

    action drop() { ingress_drop(ostd); }
    action set_nexthop(PortId_t port, bit<48> dmac) {
        hdr.ethernet.dst = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        send_to_port(ostd, port);
    }
    table ipv4_route {
        key = {
            hdr.ipv4.dst      : lpm;
            hdr.ipv4.src      : selector;
            hdr.ipv4.protocol : selector;
            meta.sport        : selector;
            meta.dport        : selector;
        }
        actions = { set_nexthop; drop; }
        psa_implementation = ecmp_selector;
        size = 16384;
    }

    action set_smac(bit<48> smac) { hdr.ethernet.src = smac; }
    table port_smac {
        key = { ostd.egress_port : exact; }
        actions = { set_smac; NoAction; }
        psa_implementation = smac_profile;
    }

    action set_class(ClassOfService_t cos) { ostd.class_of_service = cos; }
    table elephant_flows {
        key = { meta.flow_id : exact; }
        actions = { set_class; NoAction; }
        default_action = NoAction();
        size = 512;
    }

    apply {
        if (!hdr.ipv4.isValid() || hdr.ipv4.ttl <= 1) {
            drop();
            exit;
        }
        meta.flow_id = flow_hash.get_hash({ hdr.ipv4.src, hdr.ipv4.dst,
                                            hdr.ipv4.protocol, meta.sport, meta.dport });
        elephant_flows.apply();
        // One of 64 trace buckets per source/destination pair.
        bit<16> bucket = flow_hash.get_hash(16w0, { hdr.ipv4.src, hdr.ipv4.dst }, 16w64);
        if (ipv4_route.apply().hit) {
            port_smac.apply();
            if (sampler.read() == 0) {
                ostd.clone = true;
                ostd.clone_session_id = PSA_CLONE_SESSION_TO_CPU;
            }
        }
        if (bucket == 0) {
            hdr.ipv4.tos = hdr.ipv4.tos | 0x01;   // mark one bucket for tracing
        }
    }
}

control EcmpIngressDeparser(packet_out pkt, out empty_t clone_i2e_meta,
                            out empty_t resubmit_meta, out empty_t normal_meta,
                            inout headers_t hdr, in meta_t meta,
                            in psa_ingress_output_metadata_t istd) {
    InternetChecksum() csum;
    apply {
        if (hdr.ipv4.isValid()) {
            csum.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
                       hdr.ipv4.ident, hdr.ipv4.flags, hdr.ipv4.frag_offset,
                       hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src, hdr.ipv4.dst });
            hdr.ipv4.checksum = csum.get();
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ports);
    }
}

parser EcmpEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                        in psa_egress_parser_input_metadata_t istd,
                        in empty_t normal_meta, in empty_t clone_i2e_meta,
                        in empty_t clone_e2e_meta) {
    state start { transition accept; }
}

control EcmpEgress(inout headers_t hdr, inout meta_t meta,
                   in psa_egress_input_metadata_t istd,
                   inout psa_egress_output_metadata_t ostd) {
    apply {}
}

control EcmpEgressDeparser(packet_out pkt, out empty_t clone_e2e_meta,
                           out empty_t recirculate_meta, inout headers_t hdr,
                           in meta_t meta, in psa_egress_output_metadata_t istd,
                           in psa_egress_deparser_input_metadata_t edstd) {
    apply {}
}

IngressPipeline(EcmpParser(), EcmpIngress(), EcmpIngressDeparser()) ip;
EgressPipeline(EcmpEgressParser(), EcmpEgress(), EcmpEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
