// Realistic PSA program: source NAT with checksums done the PSA way.
// * The ingress parser verifies the IPv4 header checksum with an
//   InternetChecksum and `verify`, failing with a program-defined error;
//   ingress counts parser errors per kind (DirectCounter on a table keyed by
//   istd.parser_error) and drops those packets.
// * Ingress rewrites the source address and port.  The ingress deparser
//   recomputes the IPv4 checksum from scratch and patches the TCP/UDP
//   checksum incrementally (subtract the old address/port, add the new),
//   saving and restoring the sum with get_state/set_state.
#include <core.p4>
#include <psa.p4>

error { BadIPv4Checksum, IPv4OptionsUnsupported }

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header tcp_h {
    bit<16> sport; bit<16> dport; bit<32> seq; bit<32> ack;
    bit<4> data_offset; bit<4> res; bit<8> flags; bit<16> window;
    bit<16> checksum; bit<16> urgent;
}
header udp_h { bit<16> sport; bit<16> dport; bit<16> len; bit<16> checksum; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; tcp_h tcp; udp_h udp; }
struct meta_t {
    bit<32> old_src;
    bit<16> old_sport;
    bool    translated;
}
struct empty_t {}

parser NatParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 in psa_ingress_parser_input_metadata_t istd,
                 in empty_t resubmit_meta, in empty_t recirculate_meta) {
    InternetChecksum() ck;
    state start {
        meta.old_src = 0;
        meta.old_sport = 0;
        meta.translated = false;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        verify(hdr.ipv4.ihl == 5, error.IPv4OptionsUnsupported);
        ck.clear();
        ck.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
                 hdr.ipv4.ident, hdr.ipv4.flags, hdr.ipv4.frag_offset,
                 hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src, hdr.ipv4.dst });
        verify(ck.get() == hdr.ipv4.checksum, error.BadIPv4Checksum);
        transition select(hdr.ipv4.protocol) {
            6: parse_tcp;
            17: parse_udp;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        meta.old_sport = hdr.tcp.sport;
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        meta.old_sport = hdr.udp.sport;
        transition accept;
    }
}

control NatIngress(inout headers_t hdr, inout meta_t meta,
                   in psa_ingress_input_metadata_t istd,
                   inout psa_ingress_output_metadata_t ostd) {
    DirectCounter<bit<32>>(PSA_CounterType_t.PACKETS) error_counts;

    action count_error() { error_counts.count(); }
    table parser_errors {
        key = { istd.parser_error : exact; }
        actions = { count_error; }
        default_action = count_error();
        psa_direct_counter = error_counts;
    }

    action snat(bit<32> new_src, bit<16> new_sport, PortId_t port) {
        meta.old_src = hdr.ipv4.src;
        hdr.ipv4.src = new_src;
        if (hdr.tcp.isValid()) {
            hdr.tcp.sport = new_sport;
        } else if (hdr.udp.isValid()) {
            hdr.udp.sport = new_sport;
        }
        meta.translated = true;
        send_to_port(ostd, port);
    }
    action route_only(PortId_t port) { send_to_port(ostd, port); }
    table nat {
        key = {
            hdr.ipv4.src      : exact;
            hdr.ipv4.protocol : exact;
            meta.old_sport    : exact;   // original TCP/UDP source port
        }
        actions = { snat; route_only; }
        default_action = route_only((PortId_t) 1);
    }
    apply {
        if (istd.parser_error != error.NoError) {
            parser_errors.apply();
            ingress_drop(ostd);
            exit;
        }
        if (hdr.ipv4.isValid()) {
            nat.apply();
        }
    }
}

control NatIngressDeparser(packet_out pkt, out empty_t clone_i2e_meta,
                           out empty_t resubmit_meta, out empty_t normal_meta,
                           inout headers_t hdr, in meta_t meta,
                           in psa_ingress_output_metadata_t istd) {
    InternetChecksum() ip_ck;
    InternetChecksum() l4_ck;
    apply {
        if (hdr.ipv4.isValid()) {
            ip_ck.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
                        hdr.ipv4.ident, hdr.ipv4.flags, hdr.ipv4.frag_offset,
                        hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src, hdr.ipv4.dst });
            hdr.ipv4.checksum = ip_ck.get();
        }
        if (meta.translated) {
            // The address change is common to TCP and UDP; compute it once.
            l4_ck.subtract(meta.old_src);
            l4_ck.add(hdr.ipv4.src);
            bit<16> addr_delta = l4_ck.get_state();
            if (hdr.tcp.isValid()) {
                l4_ck.subtract({ hdr.tcp.checksum, meta.old_sport });
                l4_ck.add(hdr.tcp.sport);
                hdr.tcp.checksum = l4_ck.get();
            } else if (hdr.udp.isValid() && hdr.udp.checksum != 0) {
                l4_ck.set_state(addr_delta);   // start again from the shared part
                l4_ck.subtract({ hdr.udp.checksum, meta.old_sport });
                l4_ck.add(hdr.udp.sport);
                hdr.udp.checksum = l4_ck.get();
            }
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
    }
}

parser NatEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                       in psa_egress_parser_input_metadata_t istd,
                       in empty_t normal_meta, in empty_t clone_i2e_meta,
                       in empty_t clone_e2e_meta) {
    state start { transition accept; }
}

control NatEgress(inout headers_t hdr, inout meta_t meta,
                  in psa_egress_input_metadata_t istd,
                  inout psa_egress_output_metadata_t ostd) {
    apply {}
}

control NatEgressDeparser(packet_out pkt, out empty_t clone_e2e_meta,
                          out empty_t recirculate_meta, inout headers_t hdr,
                          in meta_t meta, in psa_egress_output_metadata_t istd,
                          in psa_egress_deparser_input_metadata_t edstd) {
    apply {}
}

IngressPipeline(NatParser(), NatIngress(), NatIngressDeparser()) ip;
EgressPipeline(NatEgressParser(), NatEgress(), NatEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
