// Realistic PSA program: control-plane packet I/O and mirroring.
// * Packets from the CPU port carry a `packet_out` header naming the egress
//   port; the switch strips it and sends the packet there.
// * Packets matching a "trap" ACL are copied to the CPU with an ingress-to-
//   egress clone on PSA_CLONE_SESSION_TO_CPU.  The clone_i2e_meta path
//   carries the reason and the ingress port, and the egress parser turns
//   them into a `packet_in` header in front of the copy.
// * Egress drops packets whose egress port is administratively down and
//   mirrors them (egress-to-egress clone, psa_clone_e2e) to a drop monitor;
//   the clone_e2e_meta path tells it which port the packet was bound for.
#include <core.p4>
#include <psa.p4>

header packet_out_h { PortIdInHeader_t egress_port; bit<16> reserved; }
header packet_in_h  { PortIdInHeader_t port; bit<8> reason; bit<8> pad; }
header ethernet_h   { bit<48> dst; bit<48> src; bit<16> ether_type; }

header clone_i2e_h  { bit<8> reason; PortIdInHeader_t ingress_port; }

struct headers_t {
    packet_out_h packet_out;
    packet_in_h  packet_in;
    ethernet_h   ethernet;
}
struct meta_t {
    bit<8>           trap_reason;
    PortIdInHeader_t ingress_port;
}
struct clone_meta_t { clone_i2e_h info; }
struct drop_meta_t  { PortIdInHeader_t dropped_port; }
struct empty_t {}

const bit<8> REASON_ACL_TRAP = 1;
const bit<8> REASON_LLDP     = 2;
const bit<8> REASON_PORT_DOWN = 3;
const CloneSessionId_t DROP_MONITOR_SESSION = (CloneSessionId_t) 7;

parser IoIngressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                       in psa_ingress_parser_input_metadata_t istd,
                       in empty_t resubmit_meta, in empty_t recirculate_meta) {
    state start {
        meta.trap_reason = 0;
        meta.ingress_port = (PortIdInHeader_t) ((PortIdInHeaderUint_t) (PortIdUint_t) istd.ingress_port);
        transition select(istd.ingress_port == PSA_PORT_CPU) {
            true: parse_packet_out;
            false: parse_ethernet;
        }
    }
    state parse_packet_out {
        pkt.extract(hdr.packet_out);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control IoIngress(inout headers_t hdr, inout meta_t meta,
                  in psa_ingress_input_metadata_t istd,
                  inout psa_ingress_output_metadata_t ostd) {
    action trap(bit<8> reason) {
        meta.trap_reason = reason;
        ostd.clone = true;
        ostd.clone_session_id = PSA_CLONE_SESSION_TO_CPU;
    }
    action trap_and_drop(bit<8> reason) {
        trap(reason);
        ingress_drop(ostd);
    }
    table trap_acl {
        key = {
            hdr.ethernet.dst        : ternary;
            hdr.ethernet.ether_type : ternary;
        }
        actions = { trap; trap_and_drop; NoAction; }
        default_action = NoAction();
        const entries = {
            (48w0x0180c200000e, 16w0x88cc) : trap_and_drop(REASON_LLDP);
        }
    }
    action l2_forward(PortId_t port) { send_to_port(ostd, port); }
    action flood() { multicast(ostd, (MulticastGroup_t) 1); }
    table l2_fwd {
        key = { hdr.ethernet.dst : exact; }
        actions = { l2_forward; flood; }
        default_action = flood();
    }
    apply {
        if (hdr.packet_out.isValid()) {
            // Controller packet: trust the port it names, skip the pipeline.
            send_to_port(ostd, (PortId_t) ((PortIdUint_t) (PortIdInHeaderUint_t) hdr.packet_out.egress_port));
            hdr.packet_out.setInvalid();
            exit;
        }
        l2_fwd.apply();
        trap_acl.apply();
    }
}

control IoIngressDeparser(packet_out pkt, out clone_meta_t clone_i2e_meta,
                          out empty_t resubmit_meta, out empty_t normal_meta,
                          inout headers_t hdr, in meta_t meta,
                          in psa_ingress_output_metadata_t istd) {
    apply {
        if (psa_clone_i2e(istd)) {
            clone_i2e_meta.info.setValid();
            clone_i2e_meta.info.reason = meta.trap_reason;
            clone_i2e_meta.info.ingress_port = meta.ingress_port;
        }
        pkt.emit(hdr.ethernet);
    }
}

parser IoEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                      in psa_egress_parser_input_metadata_t istd,
                      in empty_t normal_meta, in clone_meta_t clone_i2e_meta,
                      in drop_meta_t clone_e2e_meta) {
    state start {
        transition select(istd.packet_path) {
            PSA_PacketPath_t.CLONE_I2E: to_cpu;
            PSA_PacketPath_t.CLONE_E2E: to_drop_monitor;
            default: parse_ethernet;
        }
    }
    state to_cpu {
        hdr.packet_in.setValid();
        hdr.packet_in.port = clone_i2e_meta.info.ingress_port;
        hdr.packet_in.reason = clone_i2e_meta.info.reason;
        hdr.packet_in.pad = 0;
        transition parse_ethernet;
    }
    state to_drop_monitor {
        hdr.packet_in.setValid();
        hdr.packet_in.port = clone_e2e_meta.dropped_port;
        hdr.packet_in.reason = REASON_PORT_DOWN;
        hdr.packet_in.pad = 0;
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control IoEgress(inout headers_t hdr, inout meta_t meta,
                 in psa_egress_input_metadata_t istd,
                 inout psa_egress_output_metadata_t ostd) {
    action port_down() {
        egress_drop(ostd);
        ostd.clone = true;
        ostd.clone_session_id = DROP_MONITOR_SESSION;
    }
    table port_state {
        key = { istd.egress_port : exact; }
        actions = { port_down; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (istd.packet_path == PSA_PacketPath_t.NORMAL_UNICAST
            || istd.packet_path == PSA_PacketPath_t.NORMAL_MULTICAST) {
            port_state.apply();
        }
    }
}

control IoEgressDeparser(packet_out pkt, out drop_meta_t clone_e2e_meta,
                         out empty_t recirculate_meta, inout headers_t hdr,
                         in meta_t meta, in psa_egress_output_metadata_t istd,
                         in psa_egress_deparser_input_metadata_t edstd) {
    apply {
        if (psa_clone_e2e(istd)) {
            // Tell the drop monitor which port the original was bound for.
            clone_e2e_meta.dropped_port =
                (PortIdInHeader_t) ((PortIdInHeaderUint_t) (PortIdUint_t) edstd.egress_port);
        }
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.ethernet);
    }
}

IngressPipeline(IoIngressParser(), IoIngress(), IoIngressDeparser()) ip;
EgressPipeline(IoEgressParser(), IoEgress(), IoEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
