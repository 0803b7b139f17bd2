// Realistic v1model program: in-band queue telemetry. Egress appends a
// telemetry record built from the queueing fields of standard_metadata
// (enq_qdepth, deq_timedelta, timestamps, ...) when the packet asks for it.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TELEMETRY = 0xFD;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header telemetry_t {
    bit<32> switch_id;
    bit<9>  ingress_port;
    bit<9>  egress_port;
    bit<6>  _pad;
    bit<19> enq_qdepth;
    bit<19> deq_qdepth;
    bit<2>  _pad2;
    bit<32> deq_timedelta;
    bit<48> ingress_ts;
    bit<48> egress_ts;
    bit<32> packet_length;
}

struct headers_t {
    ethernet_t  eth;
    ipv4_t      ipv4;
    telemetry_t telemetry;
}

struct meta_t {
    bit<32> switch_id;
}

parser TelParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETYPE_IPV4 : parse_ipv4;
            default    : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control TelVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TelIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action forward(bit<9> port, bit<3> prio) {
        sm.egress_spec = port;
        sm.priority = prio;
    }

    table route {
        key = {
            hdr.ipv4.dst     : lpm;
            hdr.ipv4.tos[7:5]: ternary;
        }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.ipv4.isValid()) {
            route.apply();
        } else {
            drop();
        }
    }
}

control TelEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_switch_id(bit<32> id) {
        meta.switch_id = id;
    }

    table switch_config {
        actions = { set_switch_id; }
        default_action = set_switch_id(0);
    }

    action add_record() {
        hdr.telemetry.setValid();
        hdr.telemetry.switch_id = meta.switch_id;
        hdr.telemetry.ingress_port = sm.ingress_port;
        hdr.telemetry.egress_port = sm.egress_port;
        hdr.telemetry._pad = 0;
        hdr.telemetry.enq_qdepth = sm.enq_qdepth;
        hdr.telemetry.deq_qdepth = sm.deq_qdepth;
        hdr.telemetry._pad2 = 0;
        hdr.telemetry.deq_timedelta = sm.deq_timedelta;
        hdr.telemetry.ingress_ts = sm.ingress_global_timestamp;
        hdr.telemetry.egress_ts = sm.egress_global_timestamp;
        hdr.telemetry.packet_length = sm.packet_length;
        hdr.ipv4.total_len = hdr.ipv4.total_len + (bit<16>)hdr.telemetry.minSizeInBytes();
        hdr.ipv4.proto = PROTO_TELEMETRY;
    }

    apply {
        switch_config.apply();
        // Packets marked with the lowest TOS bit request a record.
        if (hdr.ipv4.isValid() && hdr.ipv4.tos[0:0] == 1) {
            add_record();
        }
        if (sm.enq_timestamp == 0 && sm.checksum_error == 1) {
            mark_to_drop(sm);
        }
    }
}

control TelCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos,
              hdr.ipv4.total_len, hdr.ipv4.id, hdr.ipv4.flags,
              hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control TelDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.telemetry);
    }
}

V1Switch(TelParser(), TelVerify(), TelIngress(), TelEgress(), TelCompute(),
         TelDeparser()) main;
