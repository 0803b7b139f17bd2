// simple_switch end of egress, in order: E2E clone, drop check, deparse,
// recirculate. One egress pass that calls both clone (E2E) and recirculate
// makes both: the clone copy (headers as egress left them, metadata zero
// except its field list, instance_type 2) runs egress again on the
// session's port, and the original is deparsed and re-enters ingress
// (instance_type 4, the recirculate field list) instead of leaving.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> passes;  // ingress passes
    bit<8> ia;      // meta.a seen by a recirculated ingress
    bit<8> ib;      // meta.b seen by a recirculated ingress
    bit<8> it;      // instance_type seen by a recirculated ingress
    bit<8> ea;      // meta.a seen by the clone's egress
    bit<8> eb;      // meta.b seen by the clone's egress
    bit<8> eit;     // instance_type in the last egress
    bit<8> mark;    // set by the egress that cloned and recirculated
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1)
    bit<8> a;
    @field_list(2)
    bit<8> b;
}

parser RcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RcVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        hdr.h.passes = hdr.h.passes + 1;
        if (sm.instance_type != 0) {
            hdr.h.ia = meta.a;
            hdr.h.ib = meta.b;
            hdr.h.it = (bit<8>)sm.instance_type;
        }
        meta.a = 0xa0 | hdr.h.passes;
        meta.b = 0xb0 | hdr.h.passes;
        sm.egress_spec = 2;
    }
}

control RcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eit = (bit<8>)sm.instance_type;
        if (sm.instance_type == 2) {
            hdr.h.ea = meta.a;
            hdr.h.eb = meta.b;
        } else if (hdr.h.op == 1 && hdr.h.passes == 1) {
            hdr.h.mark = 0xcc;
            clone_preserving_field_list(CloneType.E2E, 7, 1);
            recirculate_preserving_field_list(2);
        }
    }
}

control RcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RcParser(), RcVerify(), Ing(), RcEgress(), RcCompute(),
         RcDeparser()) main;
