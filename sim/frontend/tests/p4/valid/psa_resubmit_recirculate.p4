// Realistic PSA program: multi-pass processing.
// * Resubmit: the first ingress pass classifies the source into a policy
//   profile.  Profiles that need Layer-4 ports resubmit the packet; the
//   resubmit_meta path carries the profile back to the ingress parser,
//   which then parses the transport ports as well.
// * Recirculate: IP-in-IP packets addressed to this router are sent to
//   PSA_PORT_RECIRCULATE; the egress deparser drops the outer header and
//   hands a pass count to the next ingress pass through recirculate_meta,
//   so the inner packet is routed like any other.
#include <core.p4>
#include <psa.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header ports_h { bit<16> sport; bit<16> dport; }

struct headers_t { ethernet_h ethernet; ipv4_h outer; ipv4_h inner; ports_h ports; }
struct resubmit_t  { bit<8> profile; }
struct recirc_t    { bit<8> passes; }
struct meta_t {
    bit<8> profile;     // 0 = not yet classified
    bit<8> passes;      // recirculations so far
    bool   decap;
}
struct empty_t {}

const bit<8> MAX_PASSES = 2;

parser MpIngressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                       in psa_ingress_parser_input_metadata_t istd,
                       in resubmit_t resubmit_meta, in recirc_t recirculate_meta) {
    state start {
        meta.profile = 0;
        meta.passes = 0;
        meta.decap = false;
        transition select(istd.packet_path) {
            PSA_PacketPath_t.RESUBMIT:    resubmitted;
            PSA_PacketPath_t.RECIRCULATE: recirculated;
            default:                      parse_ethernet;
        }
    }
    state resubmitted {
        meta.profile = resubmit_meta.profile;
        transition parse_ethernet;
    }
    state recirculated {
        meta.passes = recirculate_meta.passes;
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_outer;
            default: accept;
        }
    }
    state parse_outer {
        pkt.extract(hdr.outer);
        transition select(hdr.outer.protocol, meta.profile) {
            (4, _)          : parse_inner;        // IP-in-IP
            (6, 1 .. 255)   : parse_ports;        // TCP, profile needs ports
            (17, 1 .. 255)  : parse_ports;        // UDP, profile needs ports
            default         : accept;
        }
    }
    state parse_inner {
        pkt.extract(hdr.inner);
        transition accept;
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control MpIngress(inout headers_t hdr, inout meta_t meta,
                  in psa_ingress_input_metadata_t istd,
                  inout psa_ingress_output_metadata_t ostd) {
    action set_profile(bit<8> profile) {
        meta.profile = profile;
        ostd.drop = false;       // drop (initially true) would win over resubmit
        ostd.resubmit = true;
    }
    table source_profile {
        key = { hdr.outer.src : lpm; }
        actions = { set_profile; NoAction; }
        default_action = NoAction();
    }
    action decapsulate() {
        meta.decap = true;
        send_to_port(ostd, PSA_PORT_RECIRCULATE);
    }
    table tunnel_term {
        key = { hdr.outer.dst : exact; }
        actions = { decapsulate; NoAction; }
        default_action = NoAction();
    }
    action forward(PortId_t port) { send_to_port(ostd, port); }
    action deny() { ingress_drop(ostd); }
    table policy {
        key = {
            meta.profile      : exact;
            hdr.outer.dst     : ternary;
            hdr.ports.dport   : range;
        }
        actions = { forward; deny; }
        default_action = deny();
    }
    apply {
        if (!hdr.outer.isValid()) {
            ingress_drop(ostd);
        } else if (hdr.inner.isValid() && meta.passes < MAX_PASSES
                   && tunnel_term.apply().hit) {
            // decapsulate() chose the recirculation port
        } else if (meta.profile == 0 && istd.packet_path != PSA_PacketPath_t.RESUBMIT) {
            source_profile.apply();
            if (!ostd.resubmit) {
                policy.apply();
            }
        } else {
            policy.apply();
        }
    }
}

control MpIngressDeparser(packet_out pkt, out empty_t clone_i2e_meta,
                          out resubmit_t resubmit_meta, out recirc_t normal_meta,
                          inout headers_t hdr, in meta_t meta,
                          in psa_ingress_output_metadata_t istd) {
    apply {
        if (psa_resubmit(istd)) {
            resubmit_meta.profile = meta.profile;
        }
        if (psa_normal(istd)) {
            normal_meta.passes = meta.decap ? meta.passes + 1 : meta.passes;
        }
        pkt.emit(hdr);
    }
}

parser MpEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                      in psa_egress_parser_input_metadata_t istd,
                      in recirc_t normal_meta, in empty_t clone_i2e_meta,
                      in empty_t clone_e2e_meta) {
    state start {
        meta.profile = 0;
        meta.passes = normal_meta.passes;
        meta.decap = false;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_outer;
            default: accept;
        }
    }
    state parse_outer {
        pkt.extract(hdr.outer);
        transition select(hdr.outer.protocol) {
            4: parse_inner;
            default: accept;
        }
    }
    state parse_inner {
        pkt.extract(hdr.inner);
        transition accept;
    }
}

control MpEgress(inout headers_t hdr, inout meta_t meta,
                 in psa_egress_input_metadata_t istd,
                 inout psa_egress_output_metadata_t ostd) {
    apply {
        if (istd.egress_port == PSA_PORT_RECIRCULATE && hdr.inner.isValid()) {
            hdr.outer = hdr.inner;       // the inner header replaces the outer
            hdr.inner.setInvalid();
        }
    }
}

control MpEgressDeparser(packet_out pkt, out empty_t clone_e2e_meta,
                         out recirc_t recirculate_meta, inout headers_t hdr,
                         in meta_t meta, in psa_egress_output_metadata_t istd,
                         in psa_egress_deparser_input_metadata_t edstd) {
    apply {
        if (psa_recirculate(istd, edstd)) {
            recirculate_meta.passes = meta.passes;
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.outer);
        pkt.emit(hdr.inner);
    }
}

IngressPipeline(MpIngressParser(), MpIngress(), MpIngressDeparser()) ip;
EgressPipeline(MpEgressParser(), MpEgress(), MpEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
