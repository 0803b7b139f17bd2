// simple_switch ingress_thread, RESUBMIT branch: the resubmitted copy's
// metadata is reset (copy_field_list_and_set_type -> reset_metadata), then
// instance_type = 6 and packet_length = the length the pass started with
// (ingress_packet_size), whatever ingress wrote to packet_length. So the
// second pass starts with egress_spec 0 and mcast_grp 0 (resubmit beats the
// multicast the first pass asked for) and unlisted user metadata 0.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> plen;    // packet_length at the start of the second pass
    bit<8>  itype;   // instance_type in the second pass
    bit<16> espec;   // egress_spec at the start of the second pass
    bit<16> mgrp;    // mcast_grp at the start of the second pass
    bit<8>  kept;    // listed user field
    bit<8>  lost;    // unlisted user field
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bit<8> kept;
    bit<8> lost;
}

parser RmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RmVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control RmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.kept = 0x5c;
            meta.lost = 0x99;
            sm.egress_spec = 3;
            sm.mcast_grp = 7;
            sm.packet_length = 1000;
            resubmit_preserving_field_list(1);
        } else {
            hdr.h.plen = (bit<16>)sm.packet_length;
            hdr.h.itype = (bit<8>)sm.instance_type;
            hdr.h.espec = (bit<16>)sm.egress_spec;
            hdr.h.mgrp = sm.mcast_grp;
            hdr.h.kept = meta.kept;
            hdr.h.lost = meta.lost;
            if (sm.egress_spec == 0) {
                sm.egress_spec = 2;
            }
        }
    }
}

control RmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control RmCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RmDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RmParser(), RmVerify(), RmIngress(), RmEgress(), RmCompute(),
         RmDeparser()) main;
