// STF rule: a direct meter has one cell per table entry (index = the
// entry's handle, 0, 1, ... in the order entries were added); a hit writes
// that entry's colour to the read's field before the action runs; a miss
// meters nothing and writes nothing. Packet: key(8) colour(8).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> key;
    bit<8> colour;
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

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    direct_meter<bit<8>>(MeterType.packets) policer;

    action police() {
        policer.read(hdr.h.colour);
    }

    action unmetered() {
        policer.read(hdr.h.colour);
    }

    table flows {
        key = {
            hdr.h.key : exact;
        }
        actions = {
            police;
            unmetered;
        }
        meters = policer;
        default_action = unmetered();
    }

    apply {
        sm.egress_spec = 2;
        hdr.h.colour = 0xff;
        flows.apply();
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
