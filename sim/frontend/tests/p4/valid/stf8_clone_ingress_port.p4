// simple_switch: an I2E clone is re-parsed with ingress_port set (PR #1175),
// but copy_field_list_and_set_type then calls reset_metadata(), so the
// clone's egress reads ingress_port 0; an E2E clone
// (clone_with_phv_reset_metadata_ptr) also reads 0; a multicast copy
// (clone_with_phv_ptr) keeps the original's ingress_port.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> eport;   // ingress_port as egress sees it
    bit<8>  itype;
}

struct headers_t { h_t h; }
struct meta_t { @field_list(1) bit<8> unused; }

parser CpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control CpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control CpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.h.op == 1) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        } else if (hdr.h.op == 3) {
            sm.mcast_grp = 1;
        }
    }
}

control CpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 2 && sm.instance_type == 0) {
            clone_preserving_field_list(CloneType.E2E, 5, 1);
        }
        hdr.h.eport = (bit<16>)sm.ingress_port;
        hdr.h.itype = (bit<8>)sm.instance_type;
    }
}

control CpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(CpParser(), CpVerify(), CpIngress(), CpEgress(), CpCompute(),
         CpDeparser()) main;
