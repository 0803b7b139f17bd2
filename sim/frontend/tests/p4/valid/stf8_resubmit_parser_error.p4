// bmv2 Parser::parse resets the packet's error code to NoError at the start
// of every parse, and simple_switch writes standard_metadata.parser_error
// from it after each parse. A resubmitted packet is parsed again: its
// parser_error is that of the new parse, not the first pass's. Here the
// parser extracts the option only on a first pass, so the first pass fails
// (PacketTooShort) and the resubmitted pass parses cleanly (NoError); with
// op 2 both passes extract and both fail.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> e1;    // parser_error code seen by the first pass (kept)
    bit<8> e2;    // parser_error code seen by the resubmitted pass
}
header opt_t { bit<32> v; }

struct headers_t { h_t h; opt_t opt; }
struct meta_t { @field_list(1) bit<8> e1; }

parser PeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(sm.instance_type, hdr.h.op) {
            (0, _): opt;
            (_, 2): opt;
            default: accept;
        }
    }
    state opt { pkt.extract(hdr.opt); transition accept; }
}

control PeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    bit<8> code = 0;
    apply {
        if (sm.parser_error == error.NoError) {
            code = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            code = 1;
        } else {
            code = 2;
        }
        if (sm.instance_type == 0) {
            meta.e1 = code;
            resubmit_preserving_field_list(1);
        } else {
            hdr.h.e1 = meta.e1;
            hdr.h.e2 = code;
            sm.egress_spec = 2;
        }
    }
}

control PeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control PeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control PeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.opt); }
}

V1Switch(PeParser(), PeVerify(), PeIngress(), PeEgress(), PeCompute(),
         PeDeparser()) main;
