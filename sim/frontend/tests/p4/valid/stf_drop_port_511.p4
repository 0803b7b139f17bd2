// STF rule: 511 is the drop port. egress_spec == 511 at the end of ingress
// drops the packet; so does egress_spec == 511 at the end of egress
// (mark_to_drop or a plain assignment there).
#include <core.p4>
#include <v1model.p4>

// The packet names its own output port and what egress should do.
header route_t {
    bit<16> port;
    bit<8>  egress_op;
}

struct headers_t {
    route_t route;
}

struct meta_t { }

parser PortParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.route);
        transition accept;
    }
}

control PortVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PortIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = (bit<9>)hdr.route.port;
    }
}

control PortEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        if (hdr.route.egress_op == 1) {
            mark_to_drop(sm);
        } else if (hdr.route.egress_op == 2) {
            sm.egress_spec = 511;
        } else if (hdr.route.egress_op == 3) {
            // Dropped and then un-dropped: egress_spec is no longer 511.
            mark_to_drop(sm);
            sm.egress_spec = sm.egress_port;
        }
    }
}

control PortCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PortDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.route);
    }
}

V1Switch(PortParser(), PortVerify(), PortIngress(), PortEgress(), PortCompute(),
         PortDeparser()) main;
