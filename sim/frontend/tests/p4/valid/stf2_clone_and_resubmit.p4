// STF rule (simple_switch after-ingress pseudocode): the I2E clone check
// comes first and does not stop the other checks, so a pass that calls
// both clone and resubmit makes the clone (packet as received, clone field
// list) AND resubmits (resubmit field list). Resubmit beats multicast: with
// mcast_grp set and resubmit called, no copies are made in that pass, and
// the resubmitted pass starts with mcast_grp 0 again.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> x;
    bit<8> a;
    bit<8> b;
    bit<8> ii;     // instance_type in the (second) ingress pass
    bit<8> itype;  // instance_type in egress
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> a;
    @field_list(2)
    bit<8> b;
}

parser CrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.a = 0x11;
            meta.b = 0x22;
            hdr.h.x = 0xaa;
            if (hdr.h.op == 1) {
                clone_preserving_field_list(CloneType.I2E, 5, 1);
                resubmit_preserving_field_list(2);
            } else if (hdr.h.op == 2) {
                sm.mcast_grp = 1;
                resubmit_preserving_field_list(2);
            } else {
                sm.egress_spec = 3;
            }
        } else {
            hdr.h.ii = (bit<8>)sm.instance_type;
            hdr.h.a = meta.a;
            hdr.h.b = meta.b;
            sm.egress_spec = 2;
        }
    }
}

control CrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.itype = (bit<8>)sm.instance_type;
        if (sm.instance_type == 1) {
            hdr.h.a = meta.a;
            hdr.h.b = meta.b;
        }
    }
}

control CrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CrParser(), CrVerify(), CrIngress(), CrEgress(), CrCompute(),
         CrDeparser()) main;
