// simple_switch after-ingress: the I2E clone is made first, then resubmit is
// checked; both happen. With a clone session bound to a multicast group
// (mirroring_add_mc), the clone is replicated: one copy per group node with
// instance_type 1 (INGRESS_CLONE) and egress_rid of the node, each holding
// the clone field list only. The resubmitted packet runs ingress again with
// the resubmit field list; it alone is forwarded (no clone on its pass).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  c;       // clone list field (egress)
    bit<8>  r;       // resubmit list field (egress)
    bit<8>  itype;   // instance_type in egress
    bit<16> rid;     // egress_rid
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bit<8> c;
    @field_list(2) bit<8> r;
}

parser RcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RcVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control RcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.c = 0xc1;
            meta.r = 0xd1;
            clone_preserving_field_list(CloneType.I2E, 9, 1);
            resubmit_preserving_field_list(2);
            sm.egress_spec = 6;     // ignored: resubmit wins
        } else {
            sm.egress_spec = 2;
        }
    }
}

control RcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.c = meta.c;
        hdr.h.r = meta.r;
        hdr.h.itype = (bit<8>)sm.instance_type;
        hdr.h.rid = sm.egress_rid;
    }
}

control RcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RcParser(), RcVerify(), RcIngress(), RcEgress(), RcCompute(),
         RcDeparser()) main;
