// STF `expect <port>` without data: the reference driver puts the port on
// its "any number of packets" list and checks nothing there, so zero, one
// or several frames on that port all pass.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> copies;
}

struct headers_t {
    in_t i;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply {
        if (hdr.i.copies == 0) {
            mark_to_drop(sm);
        } else if (hdr.i.copies == 1) {
            sm.egress_spec = 3;
        } else {
            sm.mcast_grp = 1;
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
