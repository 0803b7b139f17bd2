// simple_switch egress: the port a copy leaves by is fixed when it is
// queued (Packet::set_egress_port in enqueue) and the transmit uses it.
// standard_metadata.egress_port is an ordinary field in egress: a write
// is visible to later reads but does not redirect the copy, for unicast
// and multicast copies alike.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> before;
    bit<8> after;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser EwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 1) {
            sm.mcast_grp = 1;
        } else {
            sm.egress_spec = 2;
        }
    }
}

control EwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.before = (bit<8>)sm.egress_port;
        sm.egress_port = 7;
        hdr.h.after = (bit<8>)sm.egress_port;
    }
}

control EwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EwParser(), EwVerify(), EwIngress(), EwEgress(), EwCompute(),
         EwDeparser()) main;
