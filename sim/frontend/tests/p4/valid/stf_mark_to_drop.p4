// STF rule: mark_to_drop sets egress_spec to 511 and the packet is dropped at
// the end of ingress, unless later code assigns egress_spec again.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    ethernet_t eth;
}

struct meta_t { }

parser DropParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control DropVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DropIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action fwd(bit<9> port) {
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    // The later assignment wins: forwarded.
    action drop_then_fwd(bit<9> port) {
        mark_to_drop(sm);
        sm.egress_spec = port;
    }

    // The later mark_to_drop wins: dropped.
    action fwd_then_drop(bit<9> port) {
        sm.egress_spec = port;
        mark_to_drop(sm);
    }

    table filter {
        key = { hdr.eth.dst : exact; }
        actions = { fwd; drop; drop_then_fwd; fwd_then_drop; }
        default_action = fwd(1);
    }

    apply {
        filter.apply();
        // A second decision after the table: EtherType 0x9999 re-forwards to
        // port 6 whatever the table did.
        if (hdr.eth.etype == 0x9999) {
            sm.egress_spec = 6;
        }
    }
}

control DropEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control DropCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DropDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
    }
}

V1Switch(DropParser(), DropVerify(), DropIngress(), DropEgress(), DropCompute(),
         DropDeparser()) main;
