// simple_switch ingress_thread, RESUBMIT branch: copy_field_list_and_set_type
// calls reset_metadata() on the copy, which zeroes every standard_metadata
// field, ingress_port included; nothing writes ingress_port again (only
// receive_() does, for packets from a port). So a resubmitted pass reads
// ingress_port 0, in the parser and in ingress, unless the program kept a
// copy in a listed user field.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> pport;   // ingress_port seen by the parser in the last pass
    bit<16> iport;   // ingress_port seen by ingress in the last pass
    bit<16> saved;   // first-pass ingress_port kept through the field list
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bit<16> saved;
    bit<16> pport;
}

parser RpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.pport = (bit<16>)sm.ingress_port;
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control RpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0 && hdr.h.op == 1) {
            meta.saved = (bit<16>)sm.ingress_port;
            resubmit_preserving_field_list(1);
        }
        hdr.h.pport = meta.pport;
        hdr.h.iport = (bit<16>)sm.ingress_port;
        hdr.h.saved = meta.saved;
        sm.egress_spec = 2;
    }
}

control RpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control RpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RpParser(), RpVerify(), RpIngress(), RpEgress(), RpCompute(),
         RpDeparser()) main;
