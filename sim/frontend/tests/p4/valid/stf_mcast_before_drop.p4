// STF rule: the end-of-ingress decisions come in a fixed order, and the
// multicast check comes before the drop check: with mcast_grp != 0 the packet
// is replicated even when egress_spec is the drop port 511 (bmv2
// simple_switch tests mcast_grp first and discards the original).
#include <core.p4>
#include <v1model.p4>

header ctl_t {
    bit<16> group;
    bit<16> spec;
    bit<16> rid;   // written by egress
}

struct headers_t {
    ctl_t ctl;
}

struct meta_t { }

parser OrdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ctl);
        transition accept;
    }
}

control OrdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OrdIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        sm.mcast_grp = hdr.ctl.group;
        // A plain assignment, not mark_to_drop: only egress_spec changes.
        sm.egress_spec = (bit<9>)hdr.ctl.spec;
    }
}

control OrdEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.ctl.rid = sm.egress_rid;
    }
}

control OrdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OrdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ctl);
    }
}

V1Switch(OrdParser(), OrdVerify(), OrdIngress(), OrdEgress(), OrdCompute(),
         OrdDeparser()) main;
