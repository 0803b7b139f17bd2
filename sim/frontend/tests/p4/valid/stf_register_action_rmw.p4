// STF rule: a register read-modify-write inside a table action, with the
// cell index coming from the entry's action data. A cell's value persists
// across packets; two entries pointing at the same cell share its state;
// different cells are independent.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  flow;
    bit<16> val;
    bit<16> prev;   // the cell's value before this packet
    bit<16> delta;  // val - prev
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<16>>(8) last;

    action track(bit<32> cell) {
        bit<16> p;
        last.read(p, cell);
        hdr.h.prev = p;
        hdr.h.delta = hdr.h.val - p;
        last.write(cell, hdr.h.val);
    }

    table flows {
        key = { hdr.h.flow : exact; }
        actions = { track; NoAction; }
        default_action = NoAction();
    }

    apply {
        sm.egress_spec = 1;
        flows.apply();
    }
}

control RmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RmParser(), RmVerify(), RmIngress(), RmEgress(), RmCompute(),
         RmDeparser()) main;
