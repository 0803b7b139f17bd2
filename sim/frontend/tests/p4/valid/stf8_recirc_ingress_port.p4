// simple_switch egress_thread, RECIRCULATE branch: the recirculated copy gets
// phv_copy->reset_metadata() and then only the field list, instance_type 4
// and packet_length; ingress_port is never written again, so the
// recirculated pass (parser, ingress, and its egress) reads ingress_port 0.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> pport;   // ingress_port in the parser, recirculated pass
    bit<16> iport;   // ingress_port in ingress, recirculated pass
    bit<16> eport;   // ingress_port in egress, recirculated pass
    bit<8>  itype;   // instance_type in ingress, recirculated pass
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bit<8> again;
    bit<16> pport;
}

parser RcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.pport = (bit<16>)sm.ingress_port;
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RcVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control RcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (meta.again == 1) {
            hdr.h.pport = meta.pport;
            hdr.h.iport = (bit<16>)sm.ingress_port;
            hdr.h.itype = (bit<8>)sm.instance_type;
            sm.egress_spec = 3;
        } else {
            sm.egress_spec = 2;
        }
    }
}

control RcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (meta.again == 0 && hdr.h.op == 1) {
            meta.again = 1;
            recirculate_preserving_field_list(1);
        } else {
            hdr.h.eport = (bit<16>)sm.ingress_port;
        }
    }
}

control RcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RcParser(), RcVerify(), RcIngress(), RcEgress(), RcCompute(),
         RcDeparser()) main;
