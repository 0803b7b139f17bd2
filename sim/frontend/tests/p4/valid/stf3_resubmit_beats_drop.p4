// simple_switch end of ingress: the resubmit check comes before the drop
// check, so a pass that calls resubmit is resubmitted even when
// mark_to_drop was called (before or after it); the resubmitted pass
// starts with egress_spec 0 again. mark_to_drop alone drops.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> it;
    bit<8> f;
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1)
    bit<8> f;
}

parser RdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.f = hdr.h.op;
            if (hdr.h.op == 1) {
                mark_to_drop(sm);
                resubmit_preserving_field_list(1);
            } else if (hdr.h.op == 2) {
                resubmit_preserving_field_list(1);
                mark_to_drop(sm);
            } else {
                mark_to_drop(sm);
            }
        } else {
            hdr.h.it = (bit<8>)sm.instance_type;
            hdr.h.f = meta.f;
            // egress_spec was reset to 0 for this pass.
            sm.egress_spec = sm.egress_spec + 2;
        }
    }
}

control RdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control RdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RdDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RdParser(), RdVerify(), Ing(), RdEgress(), RdCompute(),
         RdDeparser()) main;
