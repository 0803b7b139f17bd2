// simple_switch egress_thread, RECIRCULATE branch: the copy's metadata is
// reset (reset_metadata), the field list copied, instance_type = 4 and
// packet_length = the size of the deparsed packet (what egress emitted,
// including headers it added). So the recirculated pass starts with
// mcast_grp 0 and egress_rid 0 even when the first pass was a multicast
// copy, egress_spec 0, and unlisted user metadata 0.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> plen;    // packet_length, recirculated pass
    bit<8>  itype;   // instance_type, recirculated pass
    bit<16> espec;   // egress_spec at the start of ingress, recirculated pass
    bit<16> mgrp;    // mcast_grp, recirculated pass
    bit<16> rid;     // egress_rid, recirculated pass
    bit<8>  kept;
    bit<8>  lost;
}
header tag_t { bit<16> t; }

struct headers_t { h_t h; tag_t tag; }
struct meta_t {
    @field_list(1) bit<8> kept;
    bit<8> lost;
}

parser RrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RrVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control RrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 4) {
            hdr.h.plen = (bit<16>)sm.packet_length;
            hdr.h.itype = (bit<8>)sm.instance_type;
            hdr.h.espec = (bit<16>)sm.egress_spec;
            hdr.h.mgrp = sm.mcast_grp;
            hdr.h.rid = sm.egress_rid;
            hdr.h.kept = meta.kept;
            hdr.h.lost = meta.lost;
            sm.egress_spec = 3;
        } else {
            sm.mcast_grp = 1;
        }
    }
}

control RrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 5 && sm.egress_rid == 8) {
            hdr.tag.setValid();
            hdr.tag.t = 0xabcd;
            meta.kept = 0x4b;
            meta.lost = 0x1f;
            recirculate_preserving_field_list(1);
        }
    }
}

control RrCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RrDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.tag); }
}

V1Switch(RrParser(), RrVerify(), RrIngress(), RrEgress(), RrCompute(),
         RrDeparser()) main;
