// STF rule: egress-to-egress clone. At the end of egress, a copy is made of
// the packet as egress left it (header changes kept; user and standard
// metadata zero except the @field_list fields) and goes through egress
// again on the session's port with instance_type 2 (EGRESS_CLONE). The
// clone is made before the drop check, so it is sent even when the original
// is dropped in egress. An unconfigured session makes no copy.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> mark;
    bit<8> itype;
    bit<8> kept;
    bit<8> lost;
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> kept;
    bit<8> lost;
}

parser CeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}

control CeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            hdr.h.mark = 0xaa;
            meta.kept = 0x11;
            meta.lost = 0x22;
            if (hdr.h.op == 2) {
                clone_preserving_field_list(CloneType.E2E, 9, 1);
            } else {
                clone_preserving_field_list(CloneType.E2E, 7, 1);
            }
            if (hdr.h.op == 1) {
                mark_to_drop(sm);
            }
        } else {
            hdr.h.mark = hdr.h.mark + 1;
        }
        hdr.h.itype = (bit<8>)sm.instance_type;
        hdr.h.kept = meta.kept;
        hdr.h.lost = meta.lost;
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control CeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CeParser(), CeVerify(), CeIngress(), CeEgress(), CeCompute(),
         CeDeparser()) main;
