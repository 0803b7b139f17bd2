// Realistic v1model program: packet replication primitives. Metadata fields
// carry @field_list annotations so that resubmit, recirculate and clone can
// preserve them; instance_type tells the copies apart.
#include <core.p4>
#include <v1model.p4>

// bmv2 simple_switch instance_type values.
const bit<32> INSTANCE_NORMAL        = 0;
const bit<32> INSTANCE_INGRESS_CLONE = 1;
const bit<32> INSTANCE_EGRESS_CLONE  = 2;
const bit<32> INSTANCE_RECIRC        = 4;
const bit<32> INSTANCE_RESUBMIT      = 6;

const bit<8> FL_RESUBMIT = 1;
const bit<8> FL_CLONE    = 2;
const bit<8> FL_RECIRC   = 3;

const bit<32> MIRROR_SESSION     = 32w100;
const bit<32> EGRESS_MIRROR_SESS = 32w101;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

// Prepended to mirrored copies so a collector can see where they came from.
header mirror_tag_t {
    bit<16> orig_port;
    bit<8>  reason;
    bit<8>  passes;
}

struct headers_t {
    mirror_tag_t mirror;
    ethernet_t   eth;
}

struct meta_t {
    @field_list(1, 3)
    bit<8>  passes;
    @field_list(2)
    bit<9>  orig_port;
    @field_list(2)
    bit<8>  mirror_reason;
    bit<16> scratch;
}

parser RepParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control RepVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RepIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {

    action drop() {
        mark_to_drop(sm);
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    // Ask for one more trip through ingress, keeping the pass counter.
    action do_resubmit() {
        meta.passes = meta.passes + 1;
        resubmit_preserving_field_list(FL_RESUBMIT);
    }

    action mirror_to_collector(bit<8> reason) {
        meta.orig_port = sm.ingress_port;
        meta.mirror_reason = reason;
        clone_preserving_field_list(CloneType.I2E, MIRROR_SESSION, FL_CLONE);
    }

    table classify {
        key = {
            hdr.eth.dst   : ternary;
            hdr.eth.etype : exact;
        }
        actions = {
            forward;
            do_resubmit;
            mirror_to_collector;
            drop;
        }
        default_action = drop();
    }

    apply {
        if (sm.instance_type == INSTANCE_NORMAL) {
            meta.passes = 0;
        }
        if (meta.passes < 3) {
            classify.apply();
        } else {
            // Give up after a few passes but keep a copy for debugging.
            clone(CloneType.I2E, MIRROR_SESSION);
            drop();
        }
    }
}

control RepEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == INSTANCE_INGRESS_CLONE) {
            hdr.mirror.setValid();
            hdr.mirror.orig_port = (bit<16>)meta.orig_port;
            hdr.mirror.reason = meta.mirror_reason;
            hdr.mirror.passes = meta.passes;
            truncate(32w128);
        } else if (sm.instance_type == INSTANCE_RECIRC) {
            // Recirculated copies are sent to the collector from egress too.
            clone(CloneType.E2E, EGRESS_MIRROR_SESS);
        } else if (hdr.eth.etype == 0x88B5 && meta.passes == 0) {
            // A private EtherType asks for one recirculation.
            meta.passes = 1;
            recirculate_preserving_field_list(FL_RECIRC);
        }
        if (sm.instance_type == INSTANCE_EGRESS_CLONE) {
            meta.scratch = (bit<16>)sm.egress_rid;
        }
    }
}

control RepCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RepDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.mirror);
        pkt.emit(hdr.eth);
    }
}

V1Switch(RepParser(), RepVerify(), RepIngress(), RepEgress(), RepCompute(),
         RepDeparser()) main;
