// PNA: add_entry() reports whether the new entry was added (a bool), which a
// connection-tracking miss action checks before forwarding.
#include <core.p4>
#include <pna.p4>

header ipv4_h { bit<32> src; bit<32> dst; }
struct headers_t { ipv4_h ipv4; }
struct meta_t { }
struct flow_params_t { bit<32> peer; }

parser FlowParser(packet_in pkt, out headers_t h, inout meta_t m, in pna_main_parser_input_metadata_t istd) {
    state start { pkt.extract(h.ipv4); transition accept; }
}
control FlowPre(in headers_t h, inout meta_t m, in pna_pre_input_metadata_t istd, inout pna_pre_output_metadata_t ostd) {
    apply { }
}
control FlowMain(inout headers_t h, inout meta_t m, in pna_main_input_metadata_t istd, inout pna_main_output_metadata_t ostd) {
    action established(@unused bit<32> peer) { send_to_port((PortId_t) 1); }
    action learn() {
        bool added = add_entry("established", (flow_params_t) { peer = h.ipv4.src },
                               (ExpireTimeProfileId_t) 2);
        if (added) {
            send_to_port((PortId_t) 1);
        } else {
            drop_packet();
        }
    }
    table flows {
        key = { h.ipv4.dst : exact; }
        actions = { @tableonly established; @defaultonly learn; }
        add_on_miss = true;
        const default_action = learn;
    }
    apply { flows.apply(); }
}
control FlowDeparser(packet_out pkt, in headers_t h, in meta_t m, in pna_main_output_metadata_t ostd) {
    apply { pkt.emit(h.ipv4); }
}
PNA_NIC(FlowParser(), FlowPre(), FlowMain(), FlowDeparser()) main;
