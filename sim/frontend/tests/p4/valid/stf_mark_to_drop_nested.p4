// STF rule: mark_to_drop(sm) writes the standard_metadata it is given, so
// a call in a nested control drops the packet once the nested control's
// copy of sm is copied back out; a packet the nested control leaves alone
// is forwarded.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
}

struct headers_t {
    h_t h;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DropIf(in bit<8> op, inout standard_metadata_t sm) {
    apply {
        if (op == 1) {
            mark_to_drop(sm);
        }
    }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    DropIf() drop_if;
    apply {
        sm.egress_spec = 2;
        drop_if.apply(hdr.h.op, sm);
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
