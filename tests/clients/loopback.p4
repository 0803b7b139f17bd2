// The program the P4Runtime client sessions (tests/clients/*_session.py) run
// against `janus ctrl serve`. A PacketOut enters on the CPU port (510)
// behind a `packet_out` header carrying a tag; `fwd`, keyed on the
// Ethernet destination, either punts it back to the CPU with a reason
// (a PacketIn carrying the tag and the reason) or drops it. `punted`
// counts the punted packets per reason.
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_out")
header packet_out_t { bit<16> tag; }
@controller_header("packet_in")
header packet_in_t { bit<16> ingress_port; bit<16> tag; bit<8> reason; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; }
struct meta_t { bit<16> tag; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(8, CounterType.packets_and_bytes) punted;
    action punt(bit<8> reason) {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = (bit<16>) sm.ingress_port;
        hdr.packet_in.tag = m.tag;
        hdr.packet_in.reason = reason;
        punted.count((bit<32>) reason);
    }
    action drop() { mark_to_drop(sm); }
    table fwd {
        key = { hdr.eth.dst: exact; }
        actions = { punt; drop; }
        default_action = drop();
        size = 64;
    }
    apply {
        if (hdr.packet_out.isValid()) {
            m.tag = hdr.packet_out.tag;
            hdr.packet_out.setInvalid();
        }
        fwd.apply();
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
