// simple_switch egress: the output port is fixed when the copy is queued
// (standard_metadata.egress_port); assigning egress_spec in egress does
// not redirect the packet; only the value 511 (drop port) matters at the
// end of egress, and setting it back before egress ends cancels the drop.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> port;
}

struct headers_t { h_t h; }
struct meta_t { }

parser EsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control EsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}

control EsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 1) {
            sm.egress_spec = 5;
        } else if (hdr.h.op == 2) {
            sm.egress_spec = 511;
        } else if (hdr.h.op == 3) {
            mark_to_drop(sm);
            sm.egress_spec = 5;
        }
        hdr.h.port = (bit<8>)sm.egress_port;
    }
}

control EsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(EsParser(), EsVerify(), Ing(), EsEgress(), EsCompute(),
         EsDeparser()) main;
