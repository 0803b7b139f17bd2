// simple_switch instance_type through a chain of passes: a resubmitted
// pass runs ingress with instance_type RESUBMIT (6) and the resubmit
// field list; when it is then unicast, egress sees NORMAL (0) (bmv2 sets it
// before enqueueing); recirculating from that egress starts a third pass
// with RECIRC (4) and the recirculate field list (final egress values);
// each kind of pass keeps only its own list.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> t2;   // instance_type in the second ingress pass
    bit<8> e2;   // instance_type in the egress after it
    bit<8> t3;   // instance_type in the third ingress pass
    bit<8> e3;   // instance_type in the last egress
    bit<8> m2;   // meta.x in the second pass
    bit<8> m3;   // meta.y in the third pass
    bit<8> n3;   // meta.x in the third pass
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1)
    bit<8> x;
    @field_list(2)
    bit<8> y;
}

parser RrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control RrVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.x = 0x77;
            meta.y = 0x88;
            hdr.h.op = 0xff;   // discarded by the resubmit
            resubmit_preserving_field_list(1);
        } else if (sm.instance_type == 6) {
            hdr.h.t2 = (bit<8>)sm.instance_type;
            hdr.h.m2 = meta.x | meta.y;
            meta.y = 0x99;
            sm.egress_spec = 2;
        } else {
            hdr.h.t3 = (bit<8>)sm.instance_type;
            hdr.h.m3 = meta.y;
            hdr.h.n3 = meta.x;
            sm.egress_spec = 3;
        }
    }
}

control RrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.t3 == 0) {
            hdr.h.e2 = (bit<8>)sm.instance_type;
            meta.y = meta.y + 1;
            recirculate_preserving_field_list(2);
        } else {
            hdr.h.e3 = (bit<8>)sm.instance_type;
        }
    }
}

control RrCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control RrDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(RrParser(), RrVerify(), Ing(), RrEgress(), RrCompute(),
         RrDeparser()) main;
